import type { AreaCatalog } from "../catalog.ts";
import type { warden as en } from "../en/warden.ts";

export const warden: AreaCatalog<typeof en> = {
  "warden.month": "{year}年{month}月",
  "warden.announcement": "{warden} 是 {month} 的成本看守人。",
  "warden.announcement.next": "下一位：{user}（{month}）。",
  "warden.announcement.duty": "本月闲置机器的升级提醒和回收决定都交给成本看守人。",
  "warden.announcement.late": "（延迟公告：1 日时机器人未运行。）",
  "warden.announcement.hint": "`/gpu warden` 查看轮值表；外出时用 `/gpu warden skip`。",
  "warden.checklist.title": "你是 {month} 的成本看守人",
  "warden.checklist.intro": "本月闲置机器的升级提醒和回收决定都会交给你。你的清单：",
  "warden.checklist.idle": "1. 当前闲置的主机",
  "warden.checklist.reclaims": "2. 待定的回收决定",
  "warden.checklist.top": "3. {month} 闲置成本最高的主机",
  "warden.checklist.noData": "4. 没有数据的主机",
  "warden.checklist.idleSince": "{host} — 自 {since} 起闲置",
  "warden.checklist.idleNone": "目前没有。",
  "warden.checklist.none": "无。",
  "warden.checklist.reclaimOff": "回收流程尚未配置。",
  "warden.checklist.reclaim": "{host} — 自 {since} 起待回收；{due}",
  "warden.checklist.reclaimUtil": "{host} — 自 {since} 起待回收，平均利用率 {util}；{due}",
  "warden.checklist.decideNow": "现在就需决定",
  "warden.checklist.decideBy": "请在 {at} 前决定",
  "warden.checklist.topLine": "{host} — {cost}（闲置 {hours} GPU 小时）",
  "warden.checklist.noPrice":
    "没有主机设置价格：请在 `hosts.<name>` 下设置 `cost_per_hour` 或 `purchase_price`。",
  "warden.checklist.noIdleCost": "没有闲置成本。",
  "warden.checklist.total": "整个机群的闲置成本：成本账本中 {days} 天共 {cost}。",
  "warden.checklist.neverSeen": "{host} — 从未见到",
  "warden.checklist.noDataSince": "{host} — 自 {at} 起没有数据",
  "warden.checklist.footer":
    "`/gpu status` 查看机群，`/gpu report 30d` 查看成本账本，外出时用 `/gpu warden skip`。时间为 {zone} 时区。",
  "warden.checklist.text":
    "你是 {month} 的成本看守人：当前 {idle} 台闲置主机，{reclaims} 个待定的回收决定，{noData} 台主机没有数据。",
  "warden.more": "……另有 {count} 项",
  "warden.noRoster": "还没有成本看守人轮值表：请在配置的 `warden.roster` 下添加 Slack 用户 ID。",
  "warden.status": "{month} 的成本看守人：{user}。",
  "warden.roster.order": "轮值表（按顺序）：",
  "warden.roster.coming": "接下来几个月：",
  "warden.roster.changed": "（已交换或跳过）",
  "warden.roster.text": "成本看守人轮值表：{count} 人",
  "warden.change.skip": "{from} 本月外出",
  "warden.change.handedOver": "{actor} 让出了自己的轮值",
  "warden.change.tookOver": "{actor} 接替了 {from} 的轮值",
  "warden.change.swapped": "{actor} 调换了 {from} 的轮值",
  "warden.change.announcement": "{to} 是 {month} 的成本看守人（{why}）。",
  "warden.change.later": "{user} 改为负责 {month}。",
  "warden.change.done": "完成：{to} 是 {month} 的成本看守人。",
  "warden.change.doneAfter": "已通知频道，新的成本看守人会收到清单。",
  "warden.refused.notAllowed":
    "只有本月的成本看守人（{warden}）可以{kind, select, swap {交换轮值} other {跳过轮值}}。",
  "warden.refused.notAllowedAdmins":
    "只有本月的成本看守人（{warden}）或管理员（{admins}）可以{kind, select, swap {交换轮值} other {跳过轮值}}。",
  "warden.refused.alreadyWarden":
    "{kind, select, swap {无法交换：对方已经是本月的成本看守人。} other {无法跳过：对方已经是本月的成本看守人。}}",
  "warden.refused.nobodyElse":
    "{kind, select, swap {无法交换：轮值表上没有其他人可以接替。} other {无法跳过：轮值表上没有其他人可以接替。}}",
};
