import type { AreaCatalog } from "../catalog.ts";
import type { help as en } from "../en/help.ts";

export const help: AreaCatalog<typeof en> = {
  "help.title": "{command} 命令",
  "help.command.help": "本帮助",
  "help.command.status": "机群看板：主机、GPU、利用率、闲置起始时间；或查看一台主机的详情",
  "help.command.claimHost":
    "认领一台主机或其中几块 GPU（0 / 0,1 / 0-3；MIG 实例：0.3）；--wait 和 project=<name> 同下",
  "help.command.claimCount":
    "认领任意 n 块空闲 GPU（可指定型号），尽量集中在同一台主机；--wait：没有空闲时加入等候队列；project=<name>：按该项目的优先级等候",
  "help.command.claimPlaced":
    "认领显存不少于该值、每 GPU 小时成本最低的 n 块空闲 GPU，尽量集中在同一台主机，并给出价格；--valley：只在电价谷时分配，并说明节省多少",
  "help.command.queue": "等候队列及每个请求的位置；cancel：退出队列",
  "help.command.release": "释放你的认领（成本看守人和管理员可以释放任何人的认领）",
  "help.command.reserve":
    "按团队时间预留 GPU 时段；<day>：today、tomorrow、2026-12-10、every weekday、every mon,wed；project=<name> 让该项目成员也能认领",
  "help.command.reserveList": "将来的预留；cancel：取消你的一项预留",
  "help.command.extend": "延长你的认领",
  "help.command.mine": "你的认领，带“延长”和“释放”按钮",
  "help.command.keep":
    "保留一台主机：暂停提醒，闲置提醒和自动停机都暂停（30m、4h、2d，或 'tomorrow' 到下一个工作日 09:00）",
  "help.command.stop": "让一台闲置主机停机（负责人、认领者、成本看守人和管理员可用）",
  "help.command.start": "让一台已停机的主机重新开机（负责人、认领者、项目成员、成本看守人和管理员可用）",
  "help.command.heatmap":
    "最近 8 周每周各小时使用情况的热力图（PNG，通过私信发送）；project=<name>：只看该项目的 GPU 时间",
  "help.command.report":
    "最近几天（默认 7 天）的成本账本：成本、闲置成本、实际使用率；`project`：某月按项目分摊的成本；CSV 通过私信发送",
  "help.command.warden": "本月和下月的成本看守人；交换或跳过一轮（成本看守人或管理员可用）",
  "help.command.request": "申请更多 GPU：填写未来 3 个月计划的表单，由成本看守人或管理员决定",
  "help.footer": "时长：{durations}。GPU 列表：{gpuLists}。",
  "help.noClaims": "你没有任何认领。",
  "help.yourClaims": "你的认领：{claims}。",
  "help.claimUntil": "{slots} 至 {until, date, time}",
  "help.claimUntilDay": "{slots} 至 {until, date, dayTime}",
};
