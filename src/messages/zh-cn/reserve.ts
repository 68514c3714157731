import type { AreaCatalog } from "../catalog.ts";
import type { reserve as en } from "../en/reserve.ts";

export const reserve: AreaCatalog<typeof en> = {
  "reserve.help":
    "按团队时间预留 GPU 时段；<day>：today、tomorrow、2026-12-10、every weekday、every mon,wed；project=<name> 让该项目成员也能认领",
  "reserve.help.list": "将来的预留；cancel：取消你的一项预留",
  "reserve.made.once": "已预留 {gpus}：{day, date, weekdayDay} {from}–{to}（{zone}），编号 #{id}{note}。",
  "reserve.made.weekly": "已预留 {gpus}：每个{days} {from}–{to}（{zone}），编号 #{id}{note}。",
  "reserve.every.weekdays": "工作日",
  "reserve.every.weekends": "周末",
  "reserve.every.daily": "天",
  "reserve.overlap": "{gpus} 已被 {who} 预留（{window}，#{id}）：请换一个时段，或与对方商量。",
  "reserve.past": "该时段已于 {until, date, dayTime} 结束：请选择将来的时段。",
  "reserve.notMember": "你不是项目 {project} 的成员，不能为它预留。",
  "reserve.cancelled": "已取消预留 #{id}：{gpus} {window}。",
  "reserve.notFound": "没有可取消的预留 #{id}：`{command} reserve list` 列出所有预留。",
  "reserve.notYours": "预留 #{id} 属于 {who}：只有本人或管理员可以取消。",
  "reserve.fromConfig": "预留 #{id} 写在配置中（`reservations:`）：请在配置中修改。",
  "reserve.list.title": "预留（{count} 项）",
  "reserve.list.empty": "没有预留。`{command} reserve gpu-a:0-3 tomorrow 09:00-18:00 demo` 可创建一项。",
  "reserve.list.footer": "`{command} reserve cancel <id>` 取消你的一项预留。",
  "reserve.window.once": "{day, date, weekdayDay} {from}–{to}",
  "reserve.window.weekly": "每个{days} {from}–{to}",
  "reserve.window.now": "现在起至 {until, date, time}",
  "reserve.window.next": "下次 {from, date, dayTime}",
  "reserve.claim.refused": "{gpus} 已为 {who} 预留至 {until, date, time}（#{id}）：现在只有对方可以认领。",
  "reserve.claim.cut": "认领截止时间已缩短至 {until, date, time}：{gpus} 自那时起由 {who} 预留（#{id}）。",
  "reserve.status.title": "预留",
  "reserve.status.now": "现由 {who} 预留，至 {until, date, time}",
  "reserve.status.next": "自 {from, date, dayTime} 起由 {who} 预留",
  "reserve.home.title": "你的预留（{count} 项）",
  "reserve.home.none": "你的预留：无。",
  "reserve.alert.soon": "自 {from, date, time} 起由 {who} 预留：这台主机不会自动停机。",
  "reserve.problem.missing":
    "`reserve` 需要 GPU、日期和时段：`reserve gpu-a:0-3 tomorrow 09:00-18:00 demo`。",
  "reserve.problem.slots": "`{text}` 不是主机或 GPU 列表：请用 gpu-a、gpu-a:0,1 或 gpu-a:0-3。",
  "reserve.problem.when":
    "`{text}` 不是日期：请用 today、tomorrow、2026-12-10、every weekday、every day 或 every mon,wed。",
  "reserve.problem.hours": "`{text}` 不是时段：请用 09:00-18:00（结束晚于开始，最晚 24:00）。",
  "reserve.problem.cancelId": "`reserve cancel` 需要预留编号：`reserve cancel 12`。",
  "reserve.problem.noteLong": "备注有 {length} 个字符；请保留在 200 个以内。",
};
