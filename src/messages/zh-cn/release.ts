import type { AreaCatalog } from "../catalog.ts";
import type { release as en } from "../en/release.ts";

export const release: AreaCatalog<typeof en> = {
  "release.released": "已释放 {what}。",
  "release.forced": "已释放 {what}（由 {who} 认领）；已通知对方。",
  "release.none.mine": "你没有任何认领。",
  "release.none.slots": "没有人认领 {what}。",
  "release.refused": "{holders} 只有 {names}、{forcers} 可以释放它。",
  "release.forcers.warden": "成本看守人（{who}）",
  "release.forcers.admins": "管理员（{who}）",
  "release.forcers.nobody": "没有其他人（未配置成本看守人或管理员）",
  "release.sayWhich": "你有 {count} 个认领（{what}）：请说明释放哪个，或用 {all}。",
  "release.wholeHost": "你认领的是整台主机 {host}，不是其中的单块 GPU：请整台释放（{whole}）。",
};
