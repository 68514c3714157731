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
    "gpu-warden 演练场：{url}（本地的模拟 Slack 和模拟机群；不会触及任何真实机器；用 --no-playground 则在这里打印提醒）",
  "cli.consoleMode":
    "gpu-warden：没有 Slack 令牌，提醒打印在这里（设置 SLACK_BOT_TOKEN 以及 SLACK_APP_TOKEN 或 SLACK_SIGNING_SECRET 即可发到 {channel}）；健康检查：{health}",
  "cli.store.inUse":
    "存储 {store} 正被另一个 gpu-warden 使用（{holder}）：请先停掉那一个，或给这一个设置单独的 store.path（两个实例共用一个存储会把每条消息发两遍）",
  "cli.store.holder": "PID {pid}，在 {host} 上，自 {since} 起",
  "cli.store.holderUnknown": "PID 尚不可知",
  "cli.nothingToWatch":
    "没有可监视的对象：{file} 中没有 `sources`，PATH 中也没有 `nvidia-smi`；设置了 Slack 令牌时 gpu-warden 不会把模拟机群发到团队频道：请添加 `sources` 列表（`kind: local`、`ssh` 或 `prometheus`，想试用可用 `kind: simulated`）",
  "cli.nothingToWatch.noFile": "配置（没有 gpu-warden.yaml）",
  "cli.store.missingFolder":
    "存储 {path}：文件夹 {folder} 不存在：请创建它，或把 store.path 设为已有文件夹中的文件",
  "cli.store.notAFolder": "存储 {path}：{folder} 不是文件夹：请把 store.path 设为某个文件夹中的文件",
  "cli.store.notSqlite":
    "存储 {path} 不是 SQLite 数据库（未改动）：请把 store.path 设为另一个文件，或把这个文件移走",
  "cli.store.readOnly":
    "存储 {path}：无法写入 {folder}（只读）：请让当前用户可写，或把 store.path 设到可写的文件夹",
  "cli.store.diskFull": "存储 {path}：磁盘已满：请在那里腾出空间（或把 store.path 设到另一块磁盘）后重新启动",
  "cli.store.tooNew":
    "存储 {path} 的结构版本是 {found}，但这个 gpu-warden 只认识到版本 {known}：请升级 gpu-warden，或把 store.path 设为另一个文件",
  "cli.store.missing": "{path} 处没有存储：它由 ''gpu-warden start'' 写入（配置中的 store.path）",
  "cli.store.cannotOpen": "存储 {path}：无法打开（{detail}）：请检查文件及其文件夹，以及 store.path",
  "cli.backup.notAFolder": "备份 {path}：{folder} 不是已有的文件夹：请创建它或换一个路径",
  "cli.backup.readOnly": "备份 {path}：无法写入 {folder}（只读）：请换一个可写的文件夹",
  "cli.backup.diskFull": "备份 {path}：磁盘已满：请在那里腾出空间或换一块磁盘",
  "cli.backup.missing": "{path} 处没有备份：请给出由 ''gpu-warden backup'' 写入的文件路径",
  "cli.backup.isTheStore": "{path} 就是存储本身（store.path）：请给备份另一个路径",
  "cli.backup.notAStore": "{path} 不是 gpu-warden 存储：请给出由 ''gpu-warden backup'' 写入的文件",
  "cli.backup.damaged": "{path} 已损坏（SQLite 快速检查：{detail}）：请使用另一个备份",
  "cli.backup.tooNew":
    "{path} 的结构版本是 {found}，但这个 gpu-warden 只认识到版本 {known}：请用更新的 gpu-warden 恢复它",
  "cli.backup.cannotOpen": "备份 {path}：无法打开（{detail}）",
  "cli.usage.missingCommand": "缺少命令",
  "cli.usage.unknownCommand": "未知命令 ''{command}''",
  "cli.usage.needsFile": "{command} 需要一个文件参数 FILE",
  "cli.usage.unexpected": "多余的参数 ''{argument}''",
  "cli.usage.optionsGoWith": "{options} 只能与 ''{owner}'' 一起用，不能与 ''{command}'' 一起用",
  "cli.usage.badNow": "GPU_WARDEN_NOW={typed} 不是时刻：请用带时区的 ISO 8601，例如 2026-03-05T12:00:00Z",
  "cli.usage.notBoth": "{first} 和 {second} 只能选一个",
};
