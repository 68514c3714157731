import type { SourceConfig } from "../config/schema.ts";

export type PrometheusSourceConfig = Extract<SourceConfig, { kind: "prometheus" }>;

/** dcgm-exporter fields read per GPU. */
export const DCGM_METRICS = {
  util: "DCGM_FI_DEV_GPU_UTIL",
  fbUsed: "DCGM_FI_DEV_FB_USED",
  fbFree: "DCGM_FI_DEV_FB_FREE",
  fbReserved: "DCGM_FI_DEV_FB_RESERVED",
  power: "DCGM_FI_DEV_POWER_USAGE",
  temp: "DCGM_FI_DEV_GPU_TEMP",
  grActive: "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
} as const;

export type DcgmField = keyof typeof DCGM_METRICS;

export const DCGM_FIELDS = Object.keys(DCGM_METRICS) as DcgmField[];

/** The fleet-wide PromQL queries of one cycle (none is per host). */
export interface PrometheusQueries {
  /**
   * Per DCGM field, the current sample of every GPU (an instant selector: within the server's lookback
   * delta, and gone as soon as Prometheus marks the series stale). UUID, model and the Kubernetes
   * workload come from `fbUsed` alone, to keep the other answers small.
   * NOTE: one query per field, not one `{__name__=~"…"}` selector: in Prometheus 2.42 the regex selector
   * over 56,000 series cost about twice the seven single-name queries, which also run in parallel; and
   * an instant selector cost half of `last_over_time(…[5m])`.
   */
  fields: Record<DcgmField, string>;
  /**
   * Sample time of each GPU's FB_USED, its heartbeat: all fields of a GPU come from the same scrape, so a
   * GPU whose FB_USED is older than `stale_after_seconds` has no reading at all.
   */
  heartbeat: string;
  /**
   * Selector for `/api/v1/series` over the last `forget_after_hours`: the hosts that reported then (GPU 0
   * stands for its host: one series per host); one of them without a current sample is stale.
   * NOTE: the series API answers from the index and chunk time ranges; `last_over_time(…[3h])` decoded
   * every sample of 3 h. `/api/v1/label/…/values` would be smaller but answers per block, and a compacted
   * block spans days. VictoriaMetrics keeps a per-day index, so there a host silent for most of a day may
   * still be listed.
   */
  seen: { selector: string; windowMs: number };
  load1: string;
  cpuBusyPct: string;
  requests: string;
  podNodes: string;
  containerCpu: string;
  /** The last sample time of the given raw host-label values (run only when some host is stale). */
  lastSeen(rawHostValues: readonly string[]): string;
  /**
   * For a range query: utilisation % per GPU slot, GPU_UTIL or GR_ENGINE_ACTIVE × 100 for a slot without
   * it (MIG), as an instant query sees it at each step.
   * NOTE: utilisation alone: a range query returns every step of every GPU, and memory and power would
   * triple what a start reads (8,000 GPUs × 90 steps is 26 MB of JSON per field) for no decision.
   */
  historyInstant: string;
  /**
   * {@link PrometheusQueries.historyInstant} where the engine holds no GR_ENGINE_ACTIVE in the range: the
   * same answer without the `or`, which costs Prometheus 2.42 two to three times the rest of the query.
   */
  historyUtil: string;
  /** {@link PrometheusQueries.historyInstant} for the given raw host-label values only. */
  historyOf(rawHostValues: readonly string[]): string;
  /**
   * For range queries of the given raw host-label values, what a replay reads per GPU slot: utilisation
   * (GR_ENGINE_ACTIVE where a slot has none: MIG), memory used with its series' Kubernetes workload
   * labels (a pod on a GPU stands for its process), and power (for the suspect-reading check).
   * NOTE: plain selectors, the series' highest value per slot taken by the reader: in Prometheus 2.42 a
   * `max by (…)` of the same series cost three to four times as much per range query (0.1 s against
   * 0.3–0.5 s for 16 GPUs × 10,000 steps), and a month's replay is mostly the engine's time.
   */
  readingsOf(rawHostValues: readonly string[]): Record<"util" | "grActive" | "fbUsed" | "power", string>;
  /**
   * For a range query, per host: the highest utilisation % of any of its GPU slots within each step
   * (`max_over_time` over the step), and how many slots had a sample in it.
   * NOTE: per host, not per GPU: a week at 5-minute steps is 2,016 points a series, and 8,000 GPU series
   * would be 16 M points (about 300 MB of JSON) where 1,000 host series are 2 M. No `max by` per slot
   * first: Prometheus holds each stage's whole matrix, and that stage doubled the time of a week.
   * With `grActive` false (the engine holds no GR_ENGINE_ACTIVE in the range), the same answers without
   * the `or`: in Prometheus 2.42 the two over 14 days of 2,000 GPUs took 4.4–9.4 s with it, 1.6–3.0 s without.
   */
  historyMax(stepSeconds: number, grActive?: boolean): { highest: string; slots: string };
}

export function prometheusQueries(config: PrometheusSourceConfig): PrometheusQueries {
  const host = config.host_label;
  const nodeHost = config.node_host_label;
  const staleS = config.stale_after_seconds;
  const forgetS = Math.round(config.forget_after_hours * 3600);
  const rateS = config.rate_window_seconds;
  const gpuBy = unique([host, "gpu", "GPU_I_ID", "GPU_I_PROFILE"]).join(", ");
  const workloadBy = unique([
    host,
    "gpu",
    "GPU_I_ID",
    "GPU_I_PROFILE",
    "UUID",
    "modelName",
    "pod",
    "namespace",
    "container",
    "exported_pod",
    "exported_namespace",
    "exported_container",
    "project",
    "exported_project",
  ]).join(", ");
  return {
    fields: Object.fromEntries(
      DCGM_FIELDS.map((field) => [
        field,
        `max by (${field === "fbUsed" ? workloadBy : gpuBy}) (${DCGM_METRICS[field]})`,
      ]),
    ) as Record<DcgmField, string>,
    heartbeat: `max by (${gpuBy}) (timestamp(${DCGM_METRICS.fbUsed}))`,
    seen: { selector: `${DCGM_METRICS.fbUsed}{gpu="0"}`, windowMs: forgetS * 1000 },
    load1: `max by (${nodeHost}) (last_over_time(node_load1[${staleS}s]))`,
    cpuBusyPct: `100 * (1 - avg by (${nodeHost}) (rate(node_cpu_seconds_total{mode="idle"}[${rateS}s])))`,
    requests:
      `max by (namespace, pod, container, node, resource) (kube_pod_container_resource_requests{resource=~"cpu|nvidia_com_gpu"}` +
      ` unless on (namespace, pod) (kube_pod_status_phase{phase=~"Succeeded|Failed"} == 1))`,
    podNodes: "max by (namespace, pod, node) (kube_pod_info)",
    containerCpu: `sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{container!="", container!="POD", pod!=""}[${rateS}s]))`,
    historyInstant:
      `max by (${gpuBy}) (${DCGM_METRICS.util})` + ` or 100 * max by (${gpuBy}) (${DCGM_METRICS.grActive})`,
    historyUtil: `max by (${gpuBy}) (${DCGM_METRICS.util})`,
    historyOf: (rawHostValues) => {
      const only = hostsMatcher(host, rawHostValues);
      return (
        `max by (${gpuBy}) (${DCGM_METRICS.util}${only})` +
        ` or 100 * max by (${gpuBy}) (${DCGM_METRICS.grActive}${only})`
      );
    },
    readingsOf: (rawHostValues) => {
      const only = hostsMatcher(host, rawHostValues);
      return {
        util: `${DCGM_METRICS.util}${only}`,
        grActive: `${DCGM_METRICS.grActive}${only}`,
        fbUsed: `${DCGM_METRICS.fbUsed}${only}`,
        power: `${DCGM_METRICS.power}${only}`,
      };
    },
    historyMax: (stepSeconds, grActive = true) => {
      const over = (metric: string) => `max_over_time(${metric}[${stepSeconds}s])`;
      const util = over(DCGM_METRICS.util);
      const perSlot = grActive ? `${util} or 100 * ${over(DCGM_METRICS.grActive)}` : util;
      return { highest: `max by (${host}) (${perSlot})`, slots: `count by (${host}) (${perSlot})` };
    },
    lastSeen: (rawHostValues) => {
      const regex = rawHostValues.map(escapeRegex).join("|");
      return `max by (${host}) (max_over_time(timestamp(${DCGM_METRICS.fbUsed}{${host}=~${promString(regex)}})[${forgetS}s:30s]))`;
    },
  };
}

/** `{host=~"(a|b)(:[0-9]+)?"}`: the series of these hosts, with or without a port. */
function hostsMatcher(hostLabel: string, rawHostValues: readonly string[]): string {
  return `{${hostLabel}=~${promString(`(${rawHostValues.map(escapeRegex).join("|")})(:[0-9]+)?`)}}`;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function promString(text: string): string {
  return JSON.stringify(text);
}

export function unique(values: string[]): string[] {
  return [...new Set(values)];
}
