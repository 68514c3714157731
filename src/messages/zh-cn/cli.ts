import type { AreaCatalog } from "../catalog.ts";
import type { cli as en } from "../en/cli.ts";

export const cli: AreaCatalog<typeof en> = {
  "cli.emptyConfig": "{file} 是空文件：全部使用默认值",
  "cli.reportNeedsSince": "report 需要 --since YYYY-MM-DD（{zone} 的本地日期）",
  "cli.backedUp": "已将 {store} 备份到 {file}（{kib} KiB，结构版本 {version}）",
  "cli.restored": "已从 {file} 恢复 {store}（结构版本 {from}）",
  "cli.restoredMigrated": "已从 {file} 恢复 {store}（结构版本 {from}，已升级到版本 {version}）",
  "cli.keptAs": "{done}；被替换的存储保留为 {keptAs}",
  "cli.playground":
    "gpu-warden 演练场：{url}（本地的模拟 Slack 和模拟机群；不会触及任何真实机器；用 --no-playground 则在这里打印告警）",
  "cli.consoleMode":
    "gpu-warden：没有 Slack 令牌，告警打印在这里（设置 SLACK_BOT_TOKEN 以及 SLACK_APP_TOKEN 或 SLACK_SIGNING_SECRET 即可发到 {channel}）；健康检查：{health}",
};
