import type { AreaCatalog } from "../catalog.ts";
import type { host as en } from "../en/host.ts";

export const host: AreaCatalog<typeof en> = {
  "host.unknown.suggest": "没有主机 {host}；你是指 {suggestion} 吗？",
  "host.unknown.noneSeen": "没有主机 {host}：机器人还没有见过任何主机",
  "host.unknown.list": "没有主机 {host}；现有主机为 {hosts}",
  "host.unknown.many": "没有主机 {host}；status 命令会列出全部 {count} 台主机",
  "host.list": "{rest}和{last}",
  "host.list.or": "{rest}或{last}",
  "host.who.owners": "{count, plural, other {{host} 的负责人（{names}）}}",
  "host.who.claimants": "{count, plural, other {它的认领人（{names}）}}",
  "host.who.warden": "成本看守人（{user}）",
  "host.who.admins": "管理员（{names}）",
  "host.list.separator": "、",
};
