import type { Database } from "better-sqlite3";
import type { ContainerUsage, GpuProcess, LoginSession, SourceKind } from "../domain/observation.ts";
import { internString } from "../shared/intern.ts";
import { cycleKeyRange, ENTITY_SPAN } from "./sample-key.ts";

/** What the alerts show beyond numbers, as of a host's latest answering poll. */
export interface Evidence {
  gpus: { index: number; processes: GpuProcess[] }[];
  sessions: LoginSession[] | null;
  containers: ContainerUsage[];
}

export interface CachedGpu {
  id: number;
  index: number;
  uuid: string | null;
  model: string | null;
  memTotalMiB: number | null;
  mig: boolean;
  firstSeenMs: number;
  /** Cycle id of the last write that touched this GPU (duplicate detection). */
  stamp: number;
}

export interface CachedHost {
  id: number;
  name: string;
  source: SourceKind;
  firstSeenMs: number;
  gpus: Map<number, CachedGpu>;
  /** The latest cycle the host appears in; `null` when none. */
  lastCycleId: number | null;
  /** Whether that appearance was an answering poll. */
  lastOk: boolean | null;
  lastOkAtMs: number | null;
  /**
   * Evidence of the latest answering poll: that observation itself (kept, not copied), or its
   * stored copy after a restart. The database copy may lag; see `cycle-writer.ts`.
   */
  evidence: Evidence | null;
  /** When the processes, sessions or containers last changed (not just their figures). */
  evidenceSinceMs: number | null;
  /** The database copy lags `evidence`. */
  evidenceDirty: boolean;
  stamp: number;
}

/**
 * The hosts and GPUs in memory with their database ids, so that a poll cycle is pure appends.
 * Rebuilt from the database on open and after a failed write.
 */
export interface FleetCache {
  byName: Map<string, CachedHost>;
  byId: Map<number, CachedHost>;
  latestCycleId: number | null;
  /** The rows of the latest cycle as this process wrote them (by host and GPU id); absent after a load. */
  latestRows?: LatestCycleRows | undefined;
}

/** One cycle's host and GPU sample rows, as `SELECT`ed (NaN stored as NULL). */
export interface LatestCycleRows {
  cycleId: number;
  hosts: Map<number, CachedHostSampleRow>;
  gpus: Map<number, CachedGpuSampleRow>;
}

export interface CachedHostSampleRow {
  at_ms: number;
  ok: number;
  cause: string | null;
  message: string | null;
  sessions: number | null;
  cpu_load1: number | null;
  cpu_util_pct: number | null;
}

export interface CachedGpuSampleRow {
  util_pct: number | null;
  mem_used_mib: number | null;
  power_w: number | null;
  temp_c: number | null;
}

interface HostRow {
  id: number;
  name: string;
  source: SourceKind;
  first_seen_ms: number;
  last_cycle_id: number | null;
  last_ok_ms: number | null;
  since_ms: number | null;
  json: string | null;
}

interface GpuRow {
  id: number;
  host_id: number;
  idx: number;
  uuid: string | null;
  model: string | null;
  mem_total_mib: number | null;
  mig: number;
  first_seen_ms: number;
}

export function loadFleetCache(db: Database): FleetCache {
  const cache: FleetCache = { byName: new Map(), byId: new Map(), latestCycleId: null };
  const latest = db.prepare("SELECT max(id) AS id FROM cycle").get() as { id: number | null };
  cache.latestCycleId = latest.id;
  const hostRows = db
    .prepare(
      `SELECT h.id, h.name, h.source, h.first_seen_ms, h.last_cycle_id, h.last_ok_ms, e.since_ms, e.json
       FROM host h LEFT JOIN evidence e ON e.host_id = h.id`,
    )
    .all() as HostRow[];
  for (const row of hostRows) {
    const host: CachedHost = {
      id: row.id,
      name: row.name,
      source: row.source,
      firstSeenMs: row.first_seen_ms,
      gpus: new Map(),
      lastCycleId: row.last_cycle_id,
      lastOk: null,
      lastOkAtMs: row.last_ok_ms,
      evidence: row.json === null ? null : (JSON.parse(row.json) as Evidence),
      evidenceSinceMs: row.since_ms,
      evidenceDirty: false,
      stamp: 0,
    };
    cache.byName.set(host.name, host);
    cache.byId.set(host.id, host);
  }
  for (const row of db.prepare("SELECT * FROM gpu").all() as GpuRow[]) {
    cache.byId.get(row.host_id)?.gpus.set(row.idx, {
      id: row.id,
      index: row.idx,
      uuid: row.uuid,
      model: internString(row.model),
      memTotalMiB: row.mem_total_mib,
      mig: row.mig === 1,
      firstSeenMs: row.first_seen_ms,
      stamp: 0,
    });
  }
  if (cache.latestCycleId !== null) {
    const [lo, hi] = cycleKeyRange(cache.latestCycleId);
    const rows = db
      .prepare("SELECT id - ? AS host_id, ok, at_ms FROM host_sample WHERE id BETWEEN ? AND ?")
      .all(lo, lo, hi) as { host_id: number; ok: number; at_ms: number }[];
    for (const row of rows) {
      const host = cache.byId.get(row.host_id);
      if (host === undefined) continue;
      host.lastCycleId = cache.latestCycleId;
      markStatus(host, row.ok === 1, row.at_ms);
    }
  }
  const sampleAt = db.prepare("SELECT ok, at_ms FROM host_sample WHERE id = ?");
  for (const host of cache.byId.values()) {
    if (host.lastOk !== null || host.lastCycleId === null) continue;
    const row = sampleAt.get(host.lastCycleId * ENTITY_SPAN + host.id) as
      | { ok: number; at_ms: number }
      | undefined;
    if (row !== undefined) markStatus(host, row.ok === 1, row.at_ms);
  }
  return cache;
}

function markStatus(host: CachedHost, ok: boolean, atMs: number): void {
  host.lastOk = ok;
  if (ok) host.lastOkAtMs = atMs;
}
