import type { AreaCatalog } from "../catalog.ts";
import type { queue as en } from "../en/queue.ts";

export const queue: AreaCatalog<typeof en> = {
  "queue.want.count": "{count} 块 GPU",
  "queue.want.countModel": "{count} 块 {model} GPU",
  "queue.want.floor": "{what}（显存不少于 {gib} GiB）",
  "queue.want.valley": "{what}（仅在谷时）",
  "queue.grant": "🎉 轮到你了：{what}（{count} 项）归你，至 {until}（{duration}）{note}。",
  "queue.grant.allGpus": "全部 GPU",
  "queue.grant.gpus": "第 {list} 号 GPU",
  "queue.grant.fallback": "{what} 归你，至 {until}",
  "queue.grant.confirmBy": "请在 {at} 前确认，否则将转给等候队列中的下一位。",
  "queue.button.confirm": "确认",
  "queue.lapsed": "⌛ {what} 未在 {at} 前确认，已转给等候队列中的下一位。{example} 可重新排队。",
  "queue.joined":
    "你已进入 {what} 的等候队列（{duration}）{note}：{position}。轮到你时我会私信你；{example} 可退出队列。",
  "queue.already":
    "你已经在 {what} 的等候队列中（{duration}）{note}：{position}。轮到你时我会私信你；{example} 可退出队列。",
  "queue.position": "{position, plural, =1 {下一个就是你} other {你排第 # 位}}",
  "queue.granted": "{what} 正好空闲：已归你，请在私信中确认。",
  "queue.list.empty": "没有人在排队。{example} 可加入等候队列。",
  "queue.list.nobody": "没有人在排队。",
  "queue.list.waiting": "排队中（{count}）",
  "queue.list.line": "{position}. {who}：{what}，{duration}{note}，自 {since} 起{mine}",
  "queue.list.you": " ← 你",
  "queue.list.more": "……另有 {count} 个",
  "queue.list.awaiting": "已分配，等待确认",
  "queue.list.granted": "{who}：{what}，已分配，需在 {at} 前确认",
  "queue.list.cancelHint": "{example} 可退出等候队列。",
  "queue.cancel.none": "你不在等候队列中。",
  "queue.cancel.done": "你已退出 {what} 的等候队列。",
  "queue.confirmed": "{what} 归你，至 {until}。",
  "queue.notYours": "这个分配属于别人。",
  "queue.alreadyConfirmed": "你已经确认过了。",
  "queue.grantEnded": "这个分配已经结束。",
};
