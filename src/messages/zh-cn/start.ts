import type { AreaCatalog } from "../catalog.ts";
import type { start as en } from "../en/start.ts";

export const start: AreaCatalog<typeof en> = {
  "start.button": "开机",
  "start.button.host": "将 {host} 开机",
  "start.someone": "某人",
  "start.thread.running": "{user} 正在将 {host} 开机：执行 {steps}。",
  "start.thread.runningFor":
    "{trigger, select, claim {正在为 {user} 的认领将 {host} 开机：执行 {steps}。} grant {轮到 {user} 使用，正在将 {host} 开机：执行 {steps}。} reservation {{user} 的预留即将开始，正在将 {host} 开机：执行 {steps}。} usual {{host} 最近每个工作日都有忙碌的 GPU，正在工作时间前将它开机：执行 {steps}。} morning {最近每个工作日都有忙碌的 GPU，现在没有主机有空闲 GPU，而 {host} 的运行成本最低：正在工作时间前将它开机，供团队当天最早的工作使用。执行 {steps}。} other {正在为 {user} 将 {host} 开机：执行 {steps}。}}",
  "start.thread.started": "{host}：{step} {end}。它需要在 {grace} 分钟内重新上报。",
  "start.thread.failed": "{host} 开机失败：{step} {end}。它仍处于关机状态；`/gpu start {host}` 可再试一次。",
  "start.thread.up": "{host} 已重新开机并在上报数据（{at} 开机）。",
  "start.thread.unconfirmed":
    "{host} 已于 {at} 开机，但 {grace} 分钟内没有上报：开机可能没有成功。`/gpu start {host}` 可再试一次；负责人可以检查它。",
  "start.thread.dryRun": "试运行：将执行 {steps} 使 {host} 开机（由 {user} 请求）；未做任何更改。",
  "start.reply.begun": "正在将 {host} 开机：进度见{place}。它重新上报时我会通知你。",
  "start.reply.joined": "{host} 已在开机中（自 {at} 起）。它重新上报时我会通知你。",
  "start.reply.dryRun": "{host} 的试运行：将要执行的操作见{place}。",
  "start.refused.noAction":
    "主机 {host} 没有开机操作。请在配置的 `hosts.{host}.start` 下添加，例如 `start: '{' command: [ipmitool, -H, {host}-bmc, chassis, power, on] '}'` 或 `start: '{' webhook: https://… '}'`。",
  "start.refused.only": "只有 {who} 可以将 {host} 开机。",
  "start.refused.onlyProjects": "只有 {who} 或项目（{projects}）的成员可以将 {host} 开机。",
  "start.refused.nobody":
    "目前没有人可以将主机 {host} 开机：请在配置的 `hosts.{host}.owners` 下添加负责人，在 `slack.admins` 下添加管理员，或在 `projects` 下添加项目。",
  "start.refused.up": "{host} 正在运行：它于 {at} 上报过数据。无需开机。",
  "start.status.stoppedBy": "自 {at} 起由 {user} 停机",
  "start.status.stoppedAuto": "自 {at} 起被自动停机",
};
