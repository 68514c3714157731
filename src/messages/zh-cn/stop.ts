import type { AreaCatalog } from "../catalog.ts";
import type { stop as en } from "../en/stop.ts";

export const stop: AreaCatalog<typeof en> = {
  "stop.preview.text": "将 {host} 停机？",
  "stop.preview.question": "将 *{host}* 停机？将执行 {steps}。",
  "stop.preview.questionDryRun": "将 *{host}* 停机？将执行 {steps}（试运行：只显示将要执行的操作）。",
  "stop.preview.then": "{first}，然后 {second}",
  "stop.ack.begun": "正在将 {host} 停机：进度和结果见{place}。",
  "stop.ack.dryRun": "{host} 的试运行：将要执行的操作见{place}。",
  "stop.recent":
    "⚠️ {host} 上最近有人输入：{people}。停机会结束这些登录会话（自动停机会保留它们 {hours} 小时）。",
  "stop.recent.person": "{user}（{ago}前{held}）",
  "stop.recent.held": "，{what}",
  "stop.recent.more": "另 {count} 人",
  "stop.button.now": "立即停机",
  "stop.button.cancel": "取消",
  "stop.button.anyway": "仍然停机",
  "stop.force.body": "{refusal}。\n你是管理员，可以强制停机；这会被记录为强制操作。",
  "stop.force.title": "仍然停机？",
  "stop.force.confirm": "{refusal}。仍然将 {host} 停机？这会被记录为强制操作。",
  "stop.refused.nobody":
    "目前没有人可以将主机 {host} 停机：请在配置的 `hosts.{host}.owners` 下添加负责人，或在 `slack.admins` 下添加管理员。",
  "stop.refused.only": "只有 {who} 可以将它停机。",
  "stop.refused.neverStop": "{host} 在配置中标记为 `never_stop`：它从不停机。",
  "stop.refused.noAction":
    "主机 {host} 没有停机操作。请在配置的 `hosts.{host}.stop` 下添加，例如 `stop: '{' command: [ssh, {host}, sudo, poweroff] '}'` 或 `stop: '{' webhook: https://… '}'`。",
  "stop.refused.running": "{user} 自 {at} 起正在将 {host} 停机。",
  "stop.refused.stopped": "{user} 已于 {at} 将 {host} 停机。",
  "stop.refused.kept": "{host} 已由 {user} 保留至 {until}。",
  "stop.refused.claimed": "{host} 已由 {user} 认领至 {until}。",
  "stop.refused.notIdle": "{host} 已不在闲置期内（{status}）。",
  "stop.refused.noState": "无状态",
  "stop.done.note": "{user} 在 {host} 上的工作已用完。等 {others} 也这样表示后，它就会停机。",
  "stop.done.noted": "已记下：你在 {host} 上的工作可以结束。等 {others} 也这样表示后，它就会停机。",
  "stop.done.login": "登录名 {login}",
  "stop.done.unknownNote":
    "{user} 在 {host} 上的工作已用完。上面还有一个负责人未知的 GPU 进程，所以不会因此停机。",
  "stop.done.unknownNoted":
    "已记下：你在 {host} 上的工作可以结束。上面还有一个负责人未知的 GPU 进程，所以不会因此停机。",
  "stop.done.noAlert": "{host} 的提醒已关闭：没有可以表示用完的对象。",
  "stop.done.nothingOfYours":
    "{host} 上没有你的东西：没有属于你的登录名（配置中的 `team.logins`）的进程或登录会话，所以没有需要结束的。",
  "stop.now.busy": "{host} 现在忙碌：{gpus}",
  "stop.now.busyGpu": "GPU {slot} 利用率 {pct}%",
  "stop.now.busyMore": "另外 {count} 块",
  "stop.now.inUse": "{host} 现在有人使用：{count, plural, other {{who} 已登录（{lines}）}}",
  "stop.now.someone": "有人",
  "stop.now.noDataYet": "尚未收到 {host} 的数据：不会将看不到的主机停机",
  "stop.now.noDataSince": "自 {since} 起没有 {host} 的数据：不会将看不到的主机停机",
  "stop.now.noDataYetCause": "尚未收到 {host} 的数据（{cause}）：不会将看不到的主机停机",
  "stop.now.noDataSinceCause": "自 {since} 起没有 {host} 的数据（{cause}）：不会将看不到的主机停机",
  "stop.now.noGpus": "{host} 未报告任何 GPU：不会将看不到的主机停机",
  "stop.now.noReading":
    "{count, plural, other {{host} 的 GPU {slots} 没有利用率读数：不会将看不到的主机停机}}",
  "stop.now.suspect":
    "{count, plural, other {{host} 的 GPU {slots} 报告满利用率，却未占用显存且处于闲置功耗（已知的驱动故障）：不会依据可疑数据停机}}",
  "stop.thread.running": "{user} 正在将 {host} 停机：执行 {steps}。",
  "stop.thread.runningForced": "{user} 正在将 {host} 停机：执行 {steps}（管理员强制：{overrode}）。",
  "stop.thread.runningAuto": "正在自动将 {host} 停机（自动停机：无人保留该主机）：执行 {steps}。",
  "stop.thread.cancelledAuto": "已取消 {host} 的自动停机：{refusal}",
  "stop.thread.stopped": "{user} 已将 {host} 停机：{step} {end}。",
  "stop.thread.stoppedForced": "{user} 已将 {host} 强制停机：{step} {end}。",
  "stop.thread.stoppedAuto": "{host} 已自动停机：{step} {end}。",
  "stop.thread.preStopFailed": "已取消 {host} 的停机：停机前步骤 {step} {end}。没有任何主机被停机。",
  "stop.thread.failed": "将 {host} 停机失败：{step} {end}。{host} 可能仍在运行；可以再次尝试停机。",
  "stop.thread.dryRun": "试运行：将执行 {steps} 来将 {host} 停机（由 {user} 发起）；没有做任何更改。",
  "stop.thread.dryRunForced":
    "试运行：将执行 {steps} 来将 {host} 停机（由 {user} 发起，强制）；没有做任何更改。",
  "stop.thread.interrupted":
    "{user} 发起的 {host} 停机被中断：gpu-warden 在停机完成前重新启动，停机可能执行了，也可能没有执行。{recheck}可以再次尝试停机。",
  "stop.thread.interruptedAuto":
    "{host} 的自动停机被中断：gpu-warden 在停机完成前重新启动，停机可能执行了，也可能没有执行。{recheck}可以再次尝试停机。",
  "stop.thread.recheckAnswering": "{host} 仍在上报数据，很可能没有停机。",
  "stop.thread.recheckSilent": "{host} 此后没有再上报数据，可能已经停机。",
  "stop.end.killed": "在 {seconds} 秒后被终止（超时）",
  "stop.end.noAnswer": "在 {seconds} 秒内没有响应",
  "stop.end.notRun": "无法执行",
  "stop.end.exited": "退出码为 {code}",
  "stop.end.http": "返回 HTTP {status}",
};
