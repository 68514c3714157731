import type { AreaCatalog } from "../catalog.ts";
import type { lint as en } from "../en/lint.ts";

export const lint: AreaCatalog<typeof en> = {
  "lint.finding": "{file}:{line}：{message} [{rule}]",
  "lint.total":
    "{count, plural, =0 {{files} 个文件中没有发现问题} other {{files} 个文件中发现 {count} 个问题}}",
  "lint.unparsable": "不是有效的 YAML，这个文档未检查：{detail}",
  "lint.missingRequests":
    "{workload}/{container} 使用 GPU，但没有 {missing} 的 requests：请在 resources.requests 下添加",
  "lint.missingLimits":
    "{workload}/{container} 使用 GPU，但没有 {missing} 的 limits：请在 resources.limits 下添加",
  "lint.cpuOverRequest":
    "{workload}/{container} 请求 {requested, number} 个 CPU 核，但 14 天内峰值为 {peak, number}：请改为 {suggested, number}（峰值的 1.2 倍）",
  "lint.gpuMemoryOverRequest":
    "{workload}/{container} 占用 {requested, number} MiB GPU 显存，但 14 天内最多只用了 {peak, number} MiB：请改为 {suggested, number} MiB（nvidia.com/gpumem，最大用量的 1.3 倍）",
  "lint.namespaceWithoutDefaults":
    "命名空间 {namespace} 有 GPU 工作负载，但没有带默认值的 ResourceQuota 或 LimitRange：请添加 LimitRange，defaultRequest 中 cpu: {cpu, number}，nvidia.com/gpumem: {mib}",
  "lint.servingNoPriority":
    "在线服务 {workload} 没有 priorityClassName：请给它一个高于实验任务{experiments, select, none {} other {（{experiments}）}}的 PriorityClass，让实验任务为它让路",
  "lint.servingLowPriority":
    "在线服务 {workload} 使用的 PriorityClass {priorityClass} 不高于实验任务的（{experiments}）：请换一个更高的",
  "lint.gpuMemoryCapHigh":
    "{workload}/{container} 最多可占用显卡 {capPct, number}% 的显存：请把上限设为 {maxPct, number}% 或更低",
  "lint.unreadable": "{file}：无法读取（{detail}）",
  "lint.usageFailed": "无法从 Prometheus 读取 14 天的容器用量（{detail}）：已跳过请求量与峰值的比对",
  "lint.noFiles": "lint 至少需要一个文件（或用 - 表示标准输入）",
  "lint.badFormat": "--format 只能是 text、json 或 github，不能是 {format}",
};
