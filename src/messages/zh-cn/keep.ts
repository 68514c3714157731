import type { AreaCatalog } from "../catalog.ts";
import type { keep as en } from "../en/keep.ts";

export const keep: AreaCatalog<typeof en> = {
  "keep.kept": "已保留 {host} 至 {until}（{duration}）：在此之前不发闲置提醒，也不自动停机。",
  "keep.keptCapped":
    "已保留 {host} 至 {until}（{duration}）；已按允许的最长保留时间 {max} 截断：在此之前不发闲置提醒，也不自动停机。",
  "keep.already": "{host} 已由 {user} 保留至 {until}：在此之前不发闲置提醒，也不自动停机。",
  "keep.alreadyYou": "你已将 {host} 保留至 {until}：在此之前不发闲置提醒，也不自动停机。",
  "keep.neverStop": "{host} 已标记为 `never_stop`：它从不被提醒或停机，所以无需保留。",
  "keep.note": "{user} 已将 {host} 保留至 {until}（{duration}）。",
  "keep.noteCapped": "{user} 已将 {host} 保留至 {until}（{duration}）；已按允许的最长保留时间 {max} 截断。",
  "keep.refused.nobody":
    "目前没有人可以保留主机 {host}：请在配置的 `hosts.{host}.owners` 下添加负责人，或在 `slack.admins` 下添加管理员。",
  "keep.refused.only": "只有 {who} 可以保留它。",
};
