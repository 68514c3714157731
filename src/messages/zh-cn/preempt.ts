import type { AreaCatalog } from "../catalog.ts";
import type { preempt as en } from "../en/preempt.ts";

export const preempt: AreaCatalog<typeof en> = {
  "preempt.ask":
    "🙏 {who} 正在等待 {want}（{project}，优先级 {priority}）。请让出资源：你对 *{what}* 的认领将在 *{when}* 释放，除非你提前释放。正在运行的进程不会被停止，但这些 GPU 会交给对方。",
  "preempt.askText": "请在 {when} 前让出 {what}",
  "preempt.releaseNow": "立即释放",
  "preempt.moreTime": "我还需要 30 分钟",
  "preempt.waiting":
    "⏳ 没有合适的空闲 GPU，所以我请 {holders} 为你的 {want} 请求（优先级 {priority}）让出资源。他们的 GPU 最迟在 *{when}* 释放，之后按排队顺序分配。",
  "preempt.waitingText": "已请 {holders} 在 {when} 前让出资源",
  "preempt.released":
    "⏏️ *{what}* 已被释放，让给 {who}（{project}，优先级 {priority}）。你的进程没有被停止：请尽快迁出这些 GPU。",
  "preempt.releasedText": "{what} 已被释放以让出资源",
  "preempt.deferred": "⏳ 你可以在 *{when}* 前完成 {what} 上的工作；之后它将被释放。",
  "preempt.already": "你已经用过延长时间：该认领将在 *{when}* 释放。",
  "preempt.notYours": "这个让出请求属于别人。",
  "preempt.void": "✅ 你可以保留 *{what}*：需要它的请求已不再等待。",
  "preempt.gone": "这个让出请求已经结束。",
  "preempt.gpus": "{count} 块 GPU",
  "preempt.modelGpus": "{count} 块 {model} GPU",
};
