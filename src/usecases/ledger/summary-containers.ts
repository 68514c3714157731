import { type ContainerGroupUsage, workloadOf } from "../../checks/rightsizing.ts";
import type { ContainerFailure, Period } from "../../reports/summary-model.ts";
import type { PrometheusClient, PromVectorSample } from "../../sources/prometheus-api.ts";
import type { ContainerSource } from "../../sources/summary-prometheus.ts";

/** Subquery resolution and `rate()` window for CPU usage. */
const RATE_STEP = "5m";

const CPU_USAGE = `rate(container_cpu_usage_seconds_total{container!="", container!="POD", pod!=""}[${RATE_STEP}])`;
const BY_CONTAINER = "namespace, pod, container"; // words-ok: PromQL labels
/** dcgm-exporter names the workload with `pod`/`namespace`/`container`, or `exported_*` behind a ServiceMonitor. */
const BY_GPU_WORKLOAD = `${BY_CONTAINER}, exported_namespace, exported_pod, exported_container`;

/**
 * The PromQL of the summary's container section over a window of `seconds` ending at the query's
 * evaluation time: six queries for the whole cluster, never one per container.
 */
export function containerQueries(seconds: number): Record<ContainerQuery, string> {
  const w = `${Math.round(seconds)}s`;
  return {
    requests: `max by (${BY_CONTAINER}, resource) (max_over_time(kube_pod_container_resource_requests{resource=~"cpu|nvidia_com_gpu"}[${w}]))`,
    cpuPeak: `max by (${BY_CONTAINER}) (max_over_time(${CPU_USAGE}[${w}:${RATE_STEP}]))`,
    cpuSum: `sum by (${BY_CONTAINER}) (sum_over_time(${CPU_USAGE}[${w}:${RATE_STEP}]))`,
    cpuCount: `sum by (${BY_CONTAINER}) (count_over_time(${CPU_USAGE}[${w}:${RATE_STEP}]))`,
    gpuMemMax: `max by (${BY_GPU_WORKLOAD}) (max_over_time(DCGM_FI_DEV_FB_USED[${w}]))`,
    gpuMemTotal: `max by (${BY_GPU_WORKLOAD}) (max_over_time((DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE)[${w}:1h]))`,
  };
}

export type ContainerQuery = "requests" | "cpuPeak" | "cpuSum" | "cpuCount" | "gpuMemMax" | "gpuMemTotal";

/**
 * Container requests and usage over `period` from Prometheus (kube-state-metrics requests, cAdvisor
 * CPU, dcgm-exporter framebuffer memory), one group per workload and container. Groups without any
 * request are left out: there is nothing to compare usage with. Throws the client's
 * `PrometheusError` when a query fails.
 */
export async function readContainerUsage(
  client: PrometheusClient,
  period: Period,
  signal?: AbortSignal,
): Promise<ContainerGroupUsage[]> {
  const queries = containerQueries((period.toMs - period.fromMs) / 1000);
  const options = signal === undefined ? { atMs: period.toMs } : { atMs: period.toMs, signal };
  const names = Object.keys(queries) as ContainerQuery[];
  const answers = await Promise.all(names.map((name) => client.queryVector(queries[name], options)));
  const result = Object.fromEntries(names.map((name, i) => [name, answers[i]!])) as Record<
    ContainerQuery,
    PromVectorSample[]
  >;
  return groupContainers(result);
}

/** What every cluster's engine answered: their groups together, and the clusters that did not answer. */
export interface ClustersContainerUsage {
  groups: ContainerGroupUsage[];
  failures: ContainerFailure[];
}

/**
 * {@link readContainerUsage} of every source at once, each cut off at its own deadline (its client's
 * timeout, its queries running together): one that fails or hangs loses only its own groups. Groups of a named cluster are `cluster/namespace/workload/container`.
 */
export async function readClustersContainerUsage(
  sources: readonly ContainerSource[],
  period: Period,
): Promise<ClustersContainerUsage> {
  const answers = await Promise.allSettled(
    sources.map((source) => readContainerUsage(source.client, period)),
  );
  const groups: ContainerGroupUsage[] = [];
  const failures: ContainerFailure[] = [];
  answers.forEach((answer, i) => {
    const { cluster } = sources[i]!;
    if (answer.status === "rejected") {
      const error: unknown = answer.reason;
      failures.push({ cluster, message: error instanceof Error ? error.message : String(error) });
      return;
    }
    for (const group of answer.value)
      groups.push(cluster === null ? group : { ...group, cluster, group: `${cluster}/${group.group}` });
  });
  if (sources.length > 1) groups.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  return { groups, failures };
}

interface GroupAcc extends ContainerGroupUsage {
  podNames: Set<string>;
  cpuSum: number;
  cpuCount: number;
}

/** Folds per-pod series into workload groups: maxima of requests and peaks, Σ sum / Σ count for the mean. */
export function groupContainers(result: Record<ContainerQuery, PromVectorSample[]>): ContainerGroupUsage[] {
  const groups = new Map<string, GroupAcc>();
  const groupOf = (labels: { namespace: string; pod: string; container: string }) => {
    const workload = workloadOf(labels.pod);
    const key = `${labels.namespace}/${workload}/${labels.container}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        group: key,
        namespace: labels.namespace,
        workload,
        container: labels.container,
        pods: 0,
        cpuRequestCores: null,
        cpuPeakCores: null,
        cpuMeanCores: null,
        gpuRequest: null,
        gpuMemMaxMiB: null,
        gpuMemTotalMiB: null,
        podNames: new Set(),
        cpuSum: 0,
        cpuCount: 0,
      };
      groups.set(key, group);
    }
    group.podNames.add(labels.pod);
    return group;
  };
  const max = (a: number | null, b: number) => (a === null || b > a ? b : a);

  for (const sample of result.requests) {
    const labels = containerLabels(sample.labels);
    if (labels === null || !Number.isFinite(sample.value)) continue;
    const group = groupOf(labels);
    if (sample.labels.resource === "cpu") group.cpuRequestCores = max(group.cpuRequestCores, sample.value);
    if (sample.labels.resource === "nvidia_com_gpu") group.gpuRequest = max(group.gpuRequest, sample.value);
  }
  const known = (labels: Record<string, string>) => {
    const parsed = containerLabels(labels);
    if (parsed === null) return null;
    return groups.get(`${parsed.namespace}/${workloadOf(parsed.pod)}/${parsed.container}`) ?? null;
  };
  for (const sample of result.cpuPeak) {
    const group = known(sample.labels);
    if (group !== null && Number.isFinite(sample.value))
      group.cpuPeakCores = max(group.cpuPeakCores, sample.value);
  }
  const counts = new Map(result.cpuCount.map((sample) => [podKey(sample.labels), sample.value]));
  for (const sample of result.cpuSum) {
    const group = known(sample.labels);
    const count = counts.get(podKey(sample.labels));
    if (group === null || count === undefined || !Number.isFinite(sample.value) || count <= 0) continue;
    group.cpuSum += sample.value;
    group.cpuCount += count;
  }
  for (const sample of result.gpuMemMax) {
    const group = known(gpuWorkloadLabels(sample.labels));
    if (group !== null && Number.isFinite(sample.value))
      group.gpuMemMaxMiB = max(group.gpuMemMaxMiB, sample.value);
  }
  for (const sample of result.gpuMemTotal) {
    const group = known(gpuWorkloadLabels(sample.labels));
    if (group !== null && Number.isFinite(sample.value))
      group.gpuMemTotalMiB = max(group.gpuMemTotalMiB, sample.value);
  }

  return [...groups.values()]
    .filter((group) => (group.cpuRequestCores ?? 0) > 0 || (group.gpuRequest ?? 0) > 0)
    .map(({ podNames, cpuSum, cpuCount, ...group }) => ({
      ...group,
      pods: podNames.size,
      cpuMeanCores: cpuCount > 0 ? cpuSum / cpuCount : null,
    }))
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
}

function containerLabels(
  labels: Record<string, string>,
): { namespace: string; pod: string; container: string } | null {
  const { namespace, pod, container } = labels;
  if (!namespace || !pod || !container) return null;
  return { namespace, pod, container };
}

/**
 * NOTE: scraped through a ServiceMonitor without honor_labels, dcgm-exporter's own pod is in `pod`
 * and the workload's labels are renamed `exported_*`.
 */
function gpuWorkloadLabels(labels: Record<string, string>): Record<string, string> {
  if (labels.exported_pod) {
    return {
      namespace: labels.exported_namespace ?? "",
      pod: labels.exported_pod,
      container: labels.exported_container ?? "",
    };
  }
  if (labels.pod && /dcgm-exporter/i.test(labels.pod)) return {};
  return labels;
}

function podKey(labels: Record<string, string>): string {
  return `${labels.namespace}/${labels.pod}/${labels.container}`;
}
