import type { AreaCatalog } from "../catalog.ts";
import type { autopilot as en } from "../en/autopilot.ts";

export const autopilot: AreaCatalog<typeof en> = {
  "autopilot.empty.warning":
    "🤖 *{host}* 已空闲 {duration}，上面什么都没有；除非你保留它，它将于 *{at}* 停机。",
  "autopilot.empty.text": "{host} 已空闲 {duration}，上面什么都没有；除非你保留它，它将于 {at} 停机",
  "autopilot.empty.claims":
    "{claimants} 在它空闲之前认领了它；工作时间外，这个认领不再留住一台空闲主机。GPU 仍归认领人，`/gpu start {host}` 可重新开机。",
  "autopilot.stale.warning":
    "🤖 *{host}*：只剩 {left}，已 {duration} 无人操作。除非你保留它，它将于工作时间外的 *{at}* 停机{hook}。",
  "autopilot.stale.text": "{host}：只剩 {left}，已 {duration} 无人操作；除非你保留它，它将于 {at} 停机",
  "autopilot.stale.hook": "；停机前先运行预停机钩子",
  "autopilot.holder": "{user} 的 {name}（pid {pid}，占用 {memory}）",
  "autopilot.holder.noPid": "{user} 的 {name}（占用 {memory}）",
  "autopilot.holder.unknownUser": "未知用户",
  "autopilot.holder.unknownMemory": "未知大小的显存",
  "autopilot.list": "{first}；{rest}",
  "autopilot.memoryOnly": "未列出进程占用的显存",
  "autopilot.session": "{user} 在 {line} 上的登录",
  "autopilot.dryRun": "试运行：停机只显示将要执行的操作。",
  "autopilot.button.keep": "保留",
  "autopilot.button.keepTomorrow": "保留到明天 {at}",
  "autopilot.button.keepUntil": "保留到{day}",
  "autopilot.button.stopNow": "立即停机",
  "autopilot.stopping.empty":
    "🤖 自动驾驶：{host} 自 {since} 起（{duration}）上面什么都没有：没有 GPU 进程、没有占用显存、没有登录、没有认领、一小时内没有预留；无人保留。",
  "autopilot.stopping.emptyClaimed":
    "🤖 自动驾驶：{host} 自 {since} 起（{duration}）上面什么都没有：没有 GPU 进程、没有占用显存、没有登录、一小时内没有预留；{claimants} 的认领早于此时，且现在是工作时间外；无人保留。",
  "autopilot.keepEnded":
    "🤖 你对 *{host}* 的保留（至 {until}）已结束：自 {since} 起它上面什么都没有；工作时间外，空闲主机会在自动驾驶警告后停机。`/gpu keep {host} tomorrow` 可再次保留。",
  "autopilot.stopping.stale":
    "🤖 自动驾驶：{host} 的 GPU 自 {since} 起（{duration}）闲置，只剩 {left} 且无人操作，现在是工作时间外；无人保留。",
};
