import type { Database } from "better-sqlite3";
import type {
  GpuHourRollup,
  GpuRollupTotals,
  GpuSample,
  HostRecord,
  HostSample,
  LatestObservation,
} from "../domain/metrics.ts";
import type { FailureCause, GpuReading, HostObservation } from "../domain/observation.ts";
import type { CachedGpu, CachedHost, FleetCache } from "./fleet-cache.ts";
import { createHourPacks } from "./hour-packs.ts";
import type { MetricsStore } from "./metrics-types.ts";
import { cycleKeyRange, ENTITY_SPAN } from "./sample-key.ts";

type MetricsReads = Pick<
  MetricsStore,
  | "latestObservations"
  | "latestSampleTimes"
  | "hostSamplesSince"
  | "gpuSamplesSince"
  | "rollupsBetween"
  | "rollupHours"
  | "rollupTotals"
  | "hosts"
>;

interface HostSampleRow {
  at_ms: number;
  ok: number;
  cause: FailureCause | null;
  message: string | null;
  sessions: number | null;
  cpu_load1: number | null;
  cpu_util_pct: number | null;
}

interface GpuSampleRow {
  util_pct: number | null;
  mem_used_mib: number | null;
  power_w: number | null;
  temp_c: number | null;
}

interface RollupRow {
  hour_ms: number;
  gpu_id: number;
  util_mean_pct: number | null;
  util_max_pct: number | null;
  busy_min: number;
  idle_min: number;
  unknown_min: number;
  mem_mean_mib: number | null;
  mem_max_mib: number | null;
  energy_wh: number | null;
}

interface TotalsRow {
  gpu_id: number;
  hours: number;
  util_mean_pct: number | null;
  util_max_pct: number | null;
  busy_min: number;
  idle_min: number;
  unknown_min: number;
  mem_max_mib: number | null;
  energy_wh: number | null;
}

const HOST_SAMPLE_COLUMNS = "at_ms, ok, cause, message, sessions, cpu_load1, cpu_util_pct";
const GPU_SAMPLE_COLUMNS = "util_pct, mem_used_mib, power_w, temp_c";

export function createMetricsReads(db: Database, cache: FleetCache): MetricsReads {
  const hostSamplesSince = db.prepare(
    `SELECT hs.at_ms, hs.ok, hs.cause, hs.message, hs.sessions, hs.cpu_load1, hs.cpu_util_pct
     FROM cycle c JOIN host_sample hs ON hs.id = c.id * ${ENTITY_SPAN} + :hostId
     WHERE c.at_ms >= :sinceMs ORDER BY c.at_ms, c.id`,
  );
  const gpuSamplesSince = db
    .prepare(
      `SELECT hs.at_ms, g.idx, s.util_pct, s.mem_used_mib, s.power_w, s.temp_c
     FROM cycle c
     JOIN host_sample hs ON hs.id = c.id * ${ENTITY_SPAN} + :hostId
     JOIN gpu g ON g.host_id = :hostId
     JOIN gpu_sample s ON s.id = c.id * ${ENTITY_SPAN} + g.id
     WHERE c.at_ms >= :sinceMs ORDER BY c.at_ms, c.id, g.idx`,
    )
    .raw(true);
  const hostFilter = "AND (:hostId IS NULL OR r.gpu_id IN (SELECT id FROM gpu WHERE host_id = :hostId))";
  const rollups = db.prepare(
    `SELECT * FROM gpu_hour r WHERE r.hour_ms >= :fromMs AND r.hour_ms < :toMs ${hostFilter}
     ORDER BY r.hour_ms, r.gpu_id`,
  );
  const totals = db.prepare(
    `SELECT r.gpu_id, count(*) AS hours,
       total(r.util_mean_pct * (r.busy_min + r.idle_min))
         / nullif(total(iif(r.util_mean_pct IS NULL, 0, r.busy_min + r.idle_min)), 0) AS util_mean_pct,
       max(r.util_max_pct) AS util_max_pct, total(r.busy_min) AS busy_min, total(r.idle_min) AS idle_min,
       total(r.unknown_min) AS unknown_min, max(r.mem_max_mib) AS mem_max_mib, sum(r.energy_wh) AS energy_wh
     FROM gpu_hour r WHERE r.hour_ms >= :fromMs AND r.hour_ms < :toMs ${hostFilter}
     GROUP BY r.gpu_id`,
  );

  const packs = createHourPacks(db);

  function gpuIndex(): Map<number, KnownGpu> {
    const byId = new Map<number, KnownGpu>();
    for (const host of cache.byId.values())
      for (const gpu of host.gpus.values()) byId.set(gpu.id, { host, gpu });
    return byId;
  }

  function hostIdOf(name: string | undefined): number | null {
    if (name === undefined) return null;
    return cache.byName.get(name)?.id ?? -1;
  }

  return {
    latestObservations: createLatestReader(db, cache),
    latestSampleTimes: createLatestTimesReader(db, cache),

    hostSamplesSince(name, sinceMs) {
      const host = cache.byName.get(name);
      if (host === undefined) return [];
      return (hostSamplesSince.all({ hostId: host.id, sinceMs }) as HostSampleRow[]).map((row) =>
        hostSampleOf(name, row),
      );
    },

    gpuSamplesSince(name, sinceMs) {
      const host = cache.byName.get(name);
      if (host === undefined) return [];
      // NOTE: rows as arrays (`raw`): a restart reads every host's samples, 80,000 GPUs × the polls replayed.
      const rows = gpuSamplesSince.all({ hostId: host.id, sinceMs }) as GpuSampleTuple[];
      const samples: GpuSample[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const [atMs, index, utilPct, memUsedMiB, powerW, tempC] = rows[i]!;
        samples[i] = { host: name, index, atMs, utilPct, memUsedMiB, powerW, tempC };
      }
      return samples;
    },

    rollupsBetween(fromMs, toMs, host) {
      const gpus = gpuIndex();
      const rows = rollups.all({ fromMs, toMs, hostId: hostIdOf(host) }) as RollupRow[];
      return rows.map((row) => rollupOf(gpus.get(row.gpu_id)!, row));
    },

    rollupHours() {
      const gpus = new Map<number, { host: string; index: number }>();
      for (const [id, known] of gpuIndex()) gpus.set(id, { host: known.host.name, index: known.gpu.index });
      return { gpus, at: packs.minutesAt };
    },

    rollupTotals(fromMs, toMs, host) {
      const gpus = gpuIndex();
      const rows = totals.all({ fromMs, toMs, hostId: hostIdOf(host) }) as TotalsRow[];
      return rows
        .map((row) => totalsOf(gpus.get(row.gpu_id)!, row))
        .sort((a, b) => compareNames(a.host, b.host) || a.index - b.index);
    },

    hosts() {
      return [...cache.byName.values()].sort((a, b) => compareNames(a.name, b.name)).map(hostRecordOf);
    },
  };
}

/** The latest observation of every host: one read of the latest cycle, one row each for the others. */
function createLatestReader(db: Database, cache: FleetCache): () => LatestObservation[] {
  const hostSamplesOfCycle = db.prepare(
    `SELECT id - ? AS host_id, ${HOST_SAMPLE_COLUMNS} FROM host_sample WHERE id BETWEEN ? AND ?`,
  );
  const gpuSamplesOfCycle = db.prepare(
    `SELECT id - ? AS gpu_id, ${GPU_SAMPLE_COLUMNS} FROM gpu_sample WHERE id BETWEEN ? AND ?`,
  );
  const hostSampleAt = db.prepare(`SELECT ${HOST_SAMPLE_COLUMNS} FROM host_sample WHERE id = ?`);
  const gpuSampleAt = db.prepare(`SELECT ${GPU_SAMPLE_COLUMNS} FROM gpu_sample WHERE id = ?`);
  return () => {
    const latest = cache.latestCycleId;
    const latestHosts = new Map<number, HostSampleRow>();
    const latestGpus = new Map<number, GpuSampleRow>();
    const written = cache.latestRows;
    if (latest !== null && written?.cycleId === latest) {
      for (const [id, row] of written.hosts) latestHosts.set(id, row as HostSampleRow);
      for (const [id, row] of written.gpus) latestGpus.set(id, row);
    } else if (latest !== null) {
      const [lo, hi] = cycleKeyRange(latest);
      for (const row of hostSamplesOfCycle.all(lo, lo, hi) as (HostSampleRow & { host_id: number })[]) {
        latestHosts.set(row.host_id, row);
      }
      for (const row of gpuSamplesOfCycle.all(lo, lo, hi) as (GpuSampleRow & { gpu_id: number })[]) {
        latestGpus.set(row.gpu_id, row);
      }
    }
    const result: LatestObservation[] = [];
    for (const host of [...cache.byName.values()].sort((a, b) => compareNames(a.name, b.name))) {
      const cycleId = host.lastCycleId;
      if (cycleId === null) continue;
      const row =
        cycleId === latest
          ? latestHosts.get(host.id)
          : (hostSampleAt.get(cycleId * ENTITY_SPAN + host.id) as HostSampleRow | undefined);
      if (row === undefined) continue;
      const gpuRow =
        cycleId === latest
          ? (gpu: CachedGpu) => latestGpus.get(gpu.id)
          : (gpu: CachedGpu) => gpuSampleAt.get(cycleId * ENTITY_SPAN + gpu.id) as GpuSampleRow | undefined;
      result.push({ observation: observationOf(host, row, gpuRow), lastOkAtMs: host.lastOkAtMs });
    }
    return result;
  };
}

/** Each host's latest sample time: the latest cycle's host rows in one read, one row each for the others. */
function createLatestTimesReader(db: Database, cache: FleetCache): () => Map<string, number> {
  const timesOfCycle = db.prepare(
    "SELECT id - ? AS host_id, at_ms FROM host_sample WHERE id BETWEEN ? AND ?",
  );
  const timeAt = db.prepare("SELECT at_ms FROM host_sample WHERE id = ?").pluck();
  return () => {
    const latest = cache.latestCycleId;
    const ofLatest = new Map<number, number>();
    const written = cache.latestRows;
    if (latest !== null && written?.cycleId === latest) {
      for (const [id, row] of written.hosts) ofLatest.set(id, row.at_ms);
    } else if (latest !== null) {
      const [lo, hi] = cycleKeyRange(latest);
      for (const row of timesOfCycle.all(lo, lo, hi) as { host_id: number; at_ms: number }[])
        ofLatest.set(row.host_id, row.at_ms);
    }
    const times = new Map<string, number>();
    for (const host of cache.byName.values()) {
      const cycleId = host.lastCycleId;
      if (cycleId === null) continue;
      const atMs =
        cycleId === latest
          ? ofLatest.get(host.id)
          : (timeAt.get(cycleId * ENTITY_SPAN + host.id) as number | undefined);
      if (atMs !== undefined) times.set(host.name, atMs);
    }
    return times;
  };
}

/** A stored sample as the observation it was: readings with the host's latest evidence, or the failure. */
function observationOf(
  host: CachedHost,
  row: HostSampleRow,
  gpuRow: (gpu: CachedGpu) => GpuSampleRow | undefined,
): HostObservation {
  if (row.ok !== 1) {
    return {
      host: host.name,
      source: host.source,
      atMs: row.at_ms,
      ok: false,
      cause: row.cause ?? "error",
      message: row.message ?? `${host.name}: poll failed`,
    };
  }
  const evidence = host.evidence;
  const gpus: GpuReading[] = [];
  for (const gpu of [...host.gpus.values()].sort((a, b) => a.index - b.index)) {
    const sample = gpuRow(gpu);
    if (sample === undefined) continue;
    gpus.push({
      index: gpu.index,
      uuid: gpu.uuid,
      model: gpu.model,
      utilPct: sample.util_pct,
      memUsedMiB: sample.mem_used_mib,
      memTotalMiB: gpu.memTotalMiB,
      powerW: sample.power_w,
      tempC: sample.temp_c,
      mig: gpu.mig,
      processes: evidence?.gpus.find((g) => g.index === gpu.index)?.processes ?? [],
    });
  }
  return {
    host: host.name,
    source: host.source,
    atMs: row.at_ms,
    ok: true,
    gpus,
    sessions: evidence?.sessions ?? null,
    cpuLoad1: row.cpu_load1,
    cpuUtilPct: row.cpu_util_pct,
    containers: evidence?.containers ?? [],
  };
}

/** A GPU of the fleet cache with its host. */
interface KnownGpu {
  host: CachedHost;
  gpu: CachedGpu;
}

function hostSampleOf(host: string, row: HostSampleRow): HostSample {
  return {
    host,
    atMs: row.at_ms,
    ok: row.ok === 1,
    cause: row.cause,
    message: row.message,
    sessions: row.sessions,
    cpuLoad1: row.cpu_load1,
    cpuUtilPct: row.cpu_util_pct,
  };
}

/** A `gpuSamplesSince` row as an array: at_ms, idx, util_pct, mem_used_mib, power_w, temp_c. */
type GpuSampleTuple = [number, number, number | null, number | null, number | null, number | null];

function rollupOf(known: KnownGpu, row: RollupRow): GpuHourRollup {
  return {
    host: known.host.name,
    index: known.gpu.index,
    uuid: known.gpu.uuid,
    hourMs: row.hour_ms,
    utilMeanPct: row.util_mean_pct,
    utilMaxPct: row.util_max_pct,
    busyMinutes: row.busy_min,
    idleMinutes: row.idle_min,
    unknownMinutes: row.unknown_min,
    memMeanMiB: row.mem_mean_mib,
    memMaxMiB: row.mem_max_mib,
    energyWh: row.energy_wh,
  };
}

function totalsOf(known: KnownGpu, row: TotalsRow): GpuRollupTotals {
  return {
    host: known.host.name,
    index: known.gpu.index,
    uuid: known.gpu.uuid,
    model: known.gpu.model,
    hours: row.hours,
    utilMeanPct: row.util_mean_pct,
    utilMaxPct: row.util_max_pct,
    busyMinutes: row.busy_min,
    idleMinutes: row.idle_min,
    unknownMinutes: row.unknown_min,
    memMaxMiB: row.mem_max_mib,
    energyWh: row.energy_wh,
  };
}

function hostRecordOf(host: CachedHost): HostRecord {
  return {
    name: host.name,
    source: host.source,
    firstSeenMs: host.firstSeenMs,
    gpus: [...host.gpus.values()]
      .sort((a, b) => a.index - b.index)
      .map((gpu) => ({
        index: gpu.index,
        uuid: gpu.uuid,
        model: gpu.model,
        memTotalMiB: gpu.memTotalMiB,
        mig: gpu.mig,
        firstSeenMs: gpu.firstSeenMs,
      })),
  };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
