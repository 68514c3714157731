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
};
