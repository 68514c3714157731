import type { AreaCatalog } from "../catalog.ts";
import type { stop as en } from "../en/stop.ts";

export const stop: AreaCatalog<typeof en> = {
  "stop.preview.text": "将 {host} 停机？",
  "stop.preview.question": "将 *{host}* 停机？将执行 {steps}。",
  "stop.preview.questionDryRun": "将 *{host}* 停机？将执行 {steps}（试运行：只显示将要执行的操作）。",
  "stop.preview.then": "{first}，然后 {second}",
  "stop.button.now": "立即停机",
  "stop.button.cancel": "取消",
  "stop.button.anyway": "仍然停机",
  "stop.force.body": "{refusal}。\n你是管理员，可以强制停机；这会被记录为强制操作。",
  "stop.force.title": "仍然停机？",
  "stop.force.confirm": "{refusal}。仍然将 {host} 停机？这会被记录为强制操作。",
  "stop.refused.nobody":
    "目前没有人可以将主机 {host} 停机：请在配置的 `hosts.{host}.owners` 下添加负责人，或在 `slack.admins` 下添加管理员。",
  "stop.refused.only": "只有 {who} 可以将它停机。",
  "stop.refused.neverStop": "{host} 在配置中标记为 `never_stop`：它从不停机。",
  "stop.refused.noAction":
    "主机 {host} 没有停机操作。请在配置的 `hosts.{host}.stop` 下添加，例如 `stop: '{' command: [ssh, {host}, sudo, poweroff] '}'` 或 `stop: '{' webhook: https://… '}'`。",
  "stop.refused.running": "{user} 自 {at} 起正在将 {host} 停机。",
  "stop.refused.stopped": "{user} 已于 {at} 将 {host} 停机。",
  "stop.refused.kept": "{host} 已由 {user} 保留至 {until}。",
  "stop.refused.claimed": "{host} 已由 {user} 认领至 {until}。",
};
