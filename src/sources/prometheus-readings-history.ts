import type { HostObservation } from "../domain/observation.ts";
import type { HistoryRequest } from "../domain/source.ts";
import { isDcgmBlank } from "./prom-value.ts";
import type { PromRangeSeries } from "./prometheus-api.ts";
import {
  accumulatorIn,
  type GpuAccumulator,
  prometheusObservation,
  slotOf,
  splitMigGpus,
  type Workload,
  workloadOf,
} from "./prometheus-gpus.ts";
import { MAX_STEPS_PER_QUERY, rangeChunks, readRange } from "./prometheus-history.ts";
import { hostFromLabel } from "./prometheus-hosts.ts";
import type { PromState } from "./prometheus-state.ts";

/**
 * The hosts whose GPU 0 has samples in `[fromMs, toMs]`, from the series API (the index only, as the
 * poll's `seen` query): one series per host, however long the span.
 */
export async function hostsIn(
  s: PromState,
  span: { fromMs: number; toMs: number },
  signal: AbortSignal,
): Promise<string[]> {
  const labels = await s.historyClient.series(
    s.queries.seen.selector,
    { startMs: span.fromMs, endMs: span.toMs },
    { signal },
  );
  const hosts = new Set<string>();
  for (const set of labels) {
    const raw = set[s.config.host_label];
    if (raw) hosts.add(hostFromLabel(raw));
  }
  return [...hosts].sort();
}

const FIELDS = ["util", "grActive", "fbUsed", "power"] as const;
type ReadField = (typeof FIELDS)[number];

/**
 * Utilisation, memory (with the Kubernetes workloads on each GPU) and power of the given hosts at each
 * step: four range queries per 10,000 steps, read one chunk after the other; it changes no counter of
 * the source's. Without the heartbeat check: a sample counts at a step within the server's lookback delta
 * (Prometheus: `--query.lookback-delta`; VictoriaMetrics: a window it picks from the step and the series'
 * sample interval, capped here at `stale_after_seconds`, so that it never fills a gap the live poll would
 * call unknown).
 */
export async function readingsHistory(
  s: PromState,
  hosts: readonly string[],
  request: HistoryRequest,
  signal: AbortSignal,
): Promise<HostObservation[]> {
  if (hosts.length === 0) return [];
  const stepSeconds = Math.max(1, Math.round(request.stepMs / 1000));
  const stepMs = stepSeconds * 1000;
  const queries = s.queries.readingsOf(hosts);
  const out: HostObservation[] = [];
  for (const chunk of rangeChunks(request.fromMs, request.toMs, stepMs, MAX_STEPS_PER_QUERY)) {
    const answers = await Promise.all(
      FIELDS.map(async (field) => ({
        field,
        series: await readRange(s, queries[field], chunk, stepSeconds, signal),
      })),
    );
    const columns = readColumns(answers, s.config.host_label, {
      fromMs: chunk.startMs,
      toMs: chunk.endMs,
      stepMs,
    });
    for (const observation of columnObservations(columns)) out.push(observation);
  }
  return out;
}

/** One GPU slot's values over a chunk's steps (`NaN`: none), and the workloads on it per step. */
interface SlotColumns {
  gpu: GpuAccumulator;
  values: Record<ReadField, Float64Array>;
  /** Some series of the slot had a point at the step. */
  present: Uint8Array;
  workloads: (Map<string, Workload> | undefined)[];
}

interface Columns {
  fromMs: number;
  stepMs: number;
  steps: number;
  /** Host → slot → columns; a MIG GPU's whole-GPU slot is dropped where its instances report. */
  hosts: Map<string, Map<number, SlotColumns>>;
}

/**
 * Range answers as one typed column per slot and field (series-major, each series' labels read once):
 * a slot's value at a step is the highest of its series' there.
 */
function readColumns(
  answers: readonly { field: ReadField; series: readonly PromRangeSeries[] }[],
  hostLabel: string,
  span: { fromMs: number; toMs: number; stepMs: number },
): Columns {
  const steps = Math.floor((span.toMs - span.fromMs) / span.stepMs) + 1;
  const templates = new Map<string, Map<number, GpuAccumulator>>();
  const hosts = new Map<string, Map<number, SlotColumns>>();
  for (const { field, series: list } of answers) {
    for (const series of list) {
      const where = slotOf(series.labels, hostLabel);
      if (where === null) continue;
      const gpu = accumulatorIn(templates, where);
      const columns = columnsOf(hosts, where.host, gpu, steps);
      const workload = field === "fbUsed" ? workloadOf(series.labels) : null;
      const values = columns.values[field];
      for (const point of series.points) {
        const i = Math.round((point.atMs - span.fromMs) / span.stepMs);
        if (i < 0 || i >= steps) continue;
        columns.present[i] = 1;
        if (workload !== null) {
          const on = columns.workloads[i] ?? new Map();
          columns.workloads[i] = on;
          on.set(`${workload.namespace}/${workload.pod}/${workload.container}`, workload);
        }
        const value = point.value;
        if (!Number.isFinite(value) || isDcgmBlank(value)) continue;
        const before = values[i]!;
        values[i] = Number.isNaN(before) ? value : Math.max(before, value);
      }
    }
  }
  for (const [host, gpus] of templates) {
    splitMigGpus(gpus);
    const slots = hosts.get(host)!;
    for (const slot of [...slots.keys()]) if (!gpus.has(slot)) slots.delete(slot);
  }
  return { fromMs: span.fromMs, stepMs: span.stepMs, steps, hosts };
}

function columnsOf(
  hosts: Map<string, Map<number, SlotColumns>>,
  host: string,
  gpu: GpuAccumulator,
  steps: number,
): SlotColumns {
  let slots = hosts.get(host);
  if (!slots) {
    slots = new Map();
    hosts.set(host, slots);
  }
  let columns = slots.get(gpu.index);
  if (!columns) {
    const column = () => new Float64Array(steps).fill(Number.NaN);
    columns = {
      gpu,
      values: { util: column(), grActive: column(), fbUsed: column(), power: column() },
      present: new Uint8Array(steps),
      workloads: [],
    };
    slots.set(gpu.index, columns);
  }
  return columns;
}

const NO_WORKLOADS: GpuAccumulator["workloads"] = new Map();

/** One observation per host and step where some slot of the host had a point, in time order. */
function columnObservations(columns: Columns): HostObservation[] {
  const out: HostObservation[] = [];
  const hosts = [...columns.hosts.keys()].sort();
  for (let i = 0; i < columns.steps; i++) {
    const atMs = columns.fromMs + i * columns.stepMs;
    for (const host of hosts) {
      const gpus = new Map<number, GpuAccumulator>();
      for (const [slot, c] of columns.hosts.get(host)!) {
        if (c.present[i] === 0) continue;
        const fields: GpuAccumulator["fields"] = {};
        for (const field of FIELDS) {
          const value = c.values[field][i]!;
          if (!Number.isNaN(value)) fields[field] = value;
        }
        gpus.set(slot, { ...c.gpu, fields, workloads: c.workloads[i] ?? NO_WORKLOADS });
      }
      if (gpus.size > 0)
        out.push(
          prometheusObservation(host, atMs, gpus, { cpuLoad1: null, cpuUtilPct: null, containers: [] }),
        );
    }
  }
  return out;
}
