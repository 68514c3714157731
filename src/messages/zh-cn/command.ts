import type { AreaCatalog } from "../catalog.ts";
import type { command as en } from "../en/command.ts";

export const command: AreaCatalog<typeof en> = {
  "command.needsHostAndDuration": "`{command}` 需要主机和时长。",
  "command.needsHost": "`{command}` 需要主机。",
  "command.needsClaimAndDuration": "`{command}` 需要一项认领和时长。",
  "command.needsTarget": "`{command}` 需要主机（gpu-a、gpu-a:0,1）或 GPU 数量（2，或 2 a100）。",
  "command.needsPerson": "`{command}` 需要写明接手本月的人：@某人。",
  "command.needsDuration": "`{typed}` 需要时长。",
  "command.whichHost": "`{typed}`：哪台主机？请先写主机名：`{example}`。",
  "command.whichClaim": "`{typed}`：哪项认领？请先写它的主机：`{example}`（或 {host}:0）。",
  "command.notKeepSpan": "`{text}` 不是时长：请用 `30m`、`4h`、`2d` 或 `tomorrow`。",
  "command.notDuration": "`{text}` 不是时长：请用 `30m`、`4h` 或 `2d`。",
  "command.placementNeedsCount": "显存下限（gpus>=40g）或 --valley 需要配合 GPU 数量使用：{example}。",
  "command.forNeedsDuration": "`{word}` 后面需要时长：`30m`、`4h` 或 `2d`。",
  "command.unexpected": "`{after}` 后面多出了 `{extra}`。",
  "command.unknown": "未知命令 `{typed}`。",
  "command.unknownGuess": "未知命令 `{typed}`；你是想用 `{guess}` 吗？",
  "command.countRange": "`{typed}` 块 GPU：数量须在 1 到 {max} 之间。",
  "command.noteTooLong": "备注有 {length} 个字符；上限是 {max} 个。",
  "command.notHostName": "`{text}` 不是主机名：只能用字母、数字、'.'、'_' 或 '-'。",
  "command.notGpuList":
    "`{text}` 不是 GPU 列表：请用 {host}:0、{host}:0,1 或 {host}:0-3（GPU 0 到 255），或用 {host}:0.3 表示 GPU 0 的 MIG 实例 3。",
  "command.notDays": "`{text}` 不是天数：请用 `1d` 到 `{max}d`，例如 `30d`。",
  "command.unknownPerson":
    "无法识别 `{text}` 是谁：请提及对方（`@name`，从 Slack 的列表中选择），或给出其成员 ID（个人资料 → ⋮ → 复制成员 ID），例如 `U024BE7LH`。",
  "command.wardenVerb": "`{typed}`：请用 {forms}。",
  "command.rightForm": "正确格式：{forms}",
  "command.formExample": "{form}，例如 {example}",
  "command.or": "{first} 或 {second}",
  "command.seeHelp": "{help} 列出所有命令。",
  "command.failed": "机器人这边出了错，已记录日志。",
};
