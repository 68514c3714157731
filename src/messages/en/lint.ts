/** `gpu-warden lint`: findings in Kubernetes manifests and Compose files. */
export const lint = {
  "lint.finding": "{file}:{line}: {message} [{rule}]",
  "lint.total":
    "{count, plural, =0 {no findings in {files, plural, one {# file} other {# files}}} one {# finding in {files, plural, one {# file} other {# files}}} other {# findings in {files, plural, one {# file} other {# files}}}}",
  "lint.unparsable": "not valid YAML, this document was not checked: {detail}",
  "lint.missingRequests":
    "{workload}/{container} uses a GPU without requests for {missing}: add them under resources.requests",
  "lint.missingLimits":
    "{workload}/{container} uses a GPU without limits for {missing}: add them under resources.limits",
  "lint.cpuOverRequest":
    "{workload}/{container} requests {requested, number} CPU cores but its peak over 14 days was {peak, number}: request {suggested, number} (1.2 × the peak)",
  "lint.gpuMemoryOverRequest":
    "{workload}/{container} holds {requested, number} MiB of GPU memory but used at most {peak, number} MiB over 14 days: ask for {suggested, number} MiB (nvidia.com/gpumem, 1.3 × the most used)",
  "lint.namespaceWithoutDefaults":
    "namespace {namespace} has GPU workloads but no ResourceQuota or LimitRange with defaults: add a LimitRange with defaultRequest cpu: {cpu, number} and nvidia.com/gpumem: {mib}",
  "lint.servingNoPriority":
    "serving workload {workload} has no priorityClassName: give it a PriorityClass above the experiments''{experiments, select, none {} other { ({experiments})}} so that experiments give way to it",
  "lint.servingLowPriority":
    "serving workload {workload} uses PriorityClass {priorityClass}, not above the experiments'' ({experiments}): give it a higher one",
  "lint.gpuMemoryCapHigh":
    "{workload}/{container} may take {capPct, number}% of the card's memory: cap it at {maxPct, number}% or less",
  "lint.unreadable": "{file}: cannot read it ({detail})",
  "lint.usageFailed":
    "could not read 14 days of container usage from Prometheus ({detail}): the request-versus-peak rules were skipped",
  "lint.noFiles": "lint needs at least one file (or - for standard input)",
  "lint.badFormat": "--format takes text, json or github, not {format}",
} as const;
