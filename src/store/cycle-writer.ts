import type { Database } from "better-sqlite3";
import type { CycleWritten } from "../domain/metrics.ts";
import type { GpuReading, HostObservation } from "../domain/observation.ts";
import { createBatchInsert } from "./batch-insert.ts";
import {
  type CachedGpu,
  type CachedHost,
  type Evidence,
  type FleetCache,
  type LatestCycleRows,
  loadFleetCache,
} from "./fleet-cache.ts";
import { ENTITY_SPAN, MAX_ENTITY_ID } from "./sample-key.ts";

type OkObservation = Extract<HostObservation, { ok: true }>;

/**
 * When only the figures in a host's evidence drift (process memory, session idle minutes), its row
 * is rewritten once every this many cycles (staggered by host), and when the host stops answering
 * or drops out; the cache, and so every read, is always current. Only a crash can leave the
 * database copy behind, by these figures, until the host's next poll.
 */
export const EVIDENCE_REFRESH_CYCLES = 60;

/** Rows per multi-row INSERT (at most 8 parameters each, far below SQLite's limit of 32,766). */
const ROWS_PER_INSERT = 64;

/**
 * Builds the poll-cycle writer: every statement prepared once, hosts and GPUs resolved from
 * `cache`, so that a steady-state cycle is appends only (plus rare rows for what changed).
 */
export function createCycleWriter(
  db: Database,
  cache: FleetCache,
): (observations: readonly HostObservation[], atMs: number) => CycleWritten {
  const insertHost = db.prepare("INSERT INTO host (name, source, first_seen_ms) VALUES (?, ?, ?)");
  const updateHostSource = db.prepare("UPDATE host SET source = ? WHERE id = ?");
  const updateHostLast = db.prepare("UPDATE host SET last_cycle_id = ?, last_ok_ms = ? WHERE id = ?");
  const insertGpu = db.prepare(
    "INSERT INTO gpu (host_id, idx, uuid, model, mem_total_mib, mig, first_seen_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const updateGpu = db.prepare("UPDATE gpu SET uuid = ?, model = ?, mem_total_mib = ?, mig = ? WHERE id = ?");
  const insertCycle = db.prepare("INSERT INTO cycle (id, at_ms, hosts, gpus) VALUES (?, ?, ?, ?)");
  const upsertEvidence = db.prepare(
    `INSERT INTO evidence (host_id, since_ms, json) VALUES (?, ?, ?)
     ON CONFLICT (host_id) DO UPDATE SET since_ms = excluded.since_ms, json = excluded.json`,
  );
  const hostSamples = createBatchInsert(
    db,
    "host_sample",
    ["id", "at_ms", "ok", "cause", "message", "sessions", "cpu_load1", "cpu_util_pct"],
    ROWS_PER_INSERT,
  );
  const gpuSamples = createBatchInsert(
    db,
    "gpu_sample",
    ["id", "util_pct", "mem_used_mib", "power_w", "temp_c"],
    ROWS_PER_INSERT,
  );
  let rows: LatestCycleRows | null = null;
  const addHostSample = (
    key: number,
    atMs: number,
    ok: 0 | 1,
    cause: string | null,
    message: string | null,
    sessions: number | null,
    cpuLoad1: number | null,
    cpuUtilPct: number | null,
  ) => {
    rows?.hosts.set(key % ENTITY_SPAN, {
      at_ms: atMs,
      ok,
      cause,
      message,
      sessions,
      cpu_load1: asStored(cpuLoad1),
      cpu_util_pct: asStored(cpuUtilPct),
    });
    hostSamples.add(key);
    hostSamples.add(atMs);
    hostSamples.add(ok);
    hostSamples.add(cause);
    hostSamples.add(message);
    hostSamples.add(sessions);
    hostSamples.add(cpuLoad1);
    hostSamples.add(cpuUtilPct);
  };
  const addGpuSample = (
    key: number,
    utilPct: number | null,
    memUsedMiB: number | null,
    powerW: number | null,
    tempC: number | null,
  ) => {
    rows?.gpus.set(key % ENTITY_SPAN, {
      util_pct: asStored(utilPct),
      mem_used_mib: asStored(memUsedMiB),
      power_w: asStored(powerW),
      temp_c: asStored(tempC),
    });
    gpuSamples.add(key);
    gpuSamples.add(utilPct);
    gpuSamples.add(memUsedMiB);
    gpuSamples.add(powerW);
    gpuSamples.add(tempC);
  };
  const writeEvidence = (host: CachedHost) => {
    upsertEvidence.run(host.id, host.evidenceSinceMs, JSON.stringify(evidenceOf(host.evidence!)));
    host.evidenceDirty = false;
  };

  function hostFor(observation: HostObservation, cycleId: number): CachedHost {
    let host = cache.byName.get(observation.host);
    if (host === undefined) {
      const id = Number(
        insertHost.run(observation.host, observation.source, observation.atMs).lastInsertRowid,
      );
      if (id > MAX_ENTITY_ID) throw new Error(`host id ${id} exceeds the sample key space`);
      host = {
        id,
        name: observation.host,
        source: observation.source,
        firstSeenMs: observation.atMs,
        gpus: new Map(),
        lastCycleId: null,
        lastOk: null,
        lastOkAtMs: null,
        evidence: null,
        evidenceSinceMs: null,
        evidenceDirty: false,
        stamp: 0,
      };
      cache.byName.set(host.name, host);
      cache.byId.set(host.id, host);
    } else if (host.stamp === cycleId) {
      throw new Error(`host ${observation.host} appears twice in one poll cycle`);
    }
    if (host.source !== observation.source) {
      updateHostSource.run(observation.source, host.id);
      host.source = observation.source;
    }
    host.stamp = cycleId;
    return host;
  }

  function gpuFor(host: CachedHost, reading: GpuReading, atMs: number, cycleId: number): CachedGpu {
    let gpu = host.gpus.get(reading.index);
    const mig = reading.mig ? 1 : 0;
    if (gpu === undefined) {
      const id = Number(
        insertGpu.run(host.id, reading.index, reading.uuid, reading.model, reading.memTotalMiB, mig, atMs)
          .lastInsertRowid,
      );
      if (id > MAX_ENTITY_ID) throw new Error(`GPU id ${id} exceeds the sample key space`);
      gpu = {
        id,
        index: reading.index,
        uuid: reading.uuid,
        model: reading.model,
        memTotalMiB: reading.memTotalMiB,
        mig: reading.mig,
        firstSeenMs: atMs,
        stamp: 0,
      };
      host.gpus.set(reading.index, gpu);
    } else if (gpu.stamp === cycleId) {
      throw new Error(`host ${host.name} reports GPU ${reading.index} twice in one poll`);
    } else if (
      gpu.uuid !== reading.uuid ||
      gpu.model !== reading.model ||
      gpu.memTotalMiB !== reading.memTotalMiB ||
      gpu.mig !== reading.mig
    ) {
      updateGpu.run(reading.uuid, reading.model, reading.memTotalMiB, mig, gpu.id);
      gpu.uuid = reading.uuid;
      gpu.model = reading.model;
      gpu.memTotalMiB = reading.memTotalMiB;
      gpu.mig = reading.mig;
    }
    gpu.stamp = cycleId;
    return gpu;
  }

  const write = db.transaction((observations: readonly HostObservation[], atMs: number): CycleWritten => {
    const previousCycleId = cache.latestCycleId;
    const cycleId = (previousCycleId ?? 0) + 1;
    const base = cycleId * ENTITY_SPAN;
    rows = { cycleId, hosts: new Map(), gpus: new Map() };
    let gpuRows = 0;
    let evidenceWrites = 0;
    for (const observation of observations) {
      const host = hostFor(observation, cycleId);
      if (observation.ok) {
        addHostSample(
          base + host.id,
          observation.atMs,
          1,
          null,
          null,
          observation.sessions === null ? null : observation.sessions.length,
          observation.cpuLoad1,
          observation.cpuUtilPct,
        );
        for (const reading of observation.gpus) {
          const gpu = gpuFor(host, reading, observation.atMs, cycleId);
          addGpuSample(base + gpu.id, reading.utilPct, reading.memUsedMiB, reading.powerW, reading.tempC);
        }
        gpuRows += observation.gpus.length;
        const change = host.evidence === null ? "identity" : compareEvidence(host.evidence, observation);
        if (change !== "same") {
          host.evidence = observation;
          host.evidenceDirty = true;
          if (change === "identity") host.evidenceSinceMs = observation.atMs;
        }
        if (
          host.evidenceDirty &&
          (change === "identity" || (cycleId + host.id) % EVIDENCE_REFRESH_CYCLES === 0)
        ) {
          writeEvidence(host);
          evidenceWrites++;
        }
        host.lastOk = true;
        host.lastOkAtMs = observation.atMs;
      } else {
        addHostSample(
          base + host.id,
          observation.atMs,
          0,
          observation.cause,
          observation.message,
          null,
          null,
          null,
        );
        for (const gpu of host.gpus.values()) {
          addGpuSample(base + gpu.id, null, null, null, null);
        }
        gpuRows += host.gpus.size;
        if (host.lastOk === true) {
          updateHostLast.run(host.lastCycleId, host.lastOkAtMs, host.id);
          if (host.evidenceDirty) writeEvidence(host);
        }
        host.lastOk = false;
      }
      host.lastCycleId = cycleId;
    }
    if (previousCycleId !== null) {
      for (const host of cache.byId.values()) {
        if (host.lastCycleId !== previousCycleId) continue;
        updateHostLast.run(previousCycleId, host.lastOkAtMs, host.id);
        if (host.evidenceDirty) writeEvidence(host);
      }
    }
    hostSamples.flush();
    gpuSamples.flush();
    insertCycle.run(cycleId, atMs, observations.length, gpuRows);
    cache.latestCycleId = cycleId;
    cache.latestRows = rows;
    return { cycleId, hosts: observations.length, gpuSamples: gpuRows, evidenceWrites };
  });

  return (observations, atMs) => {
    try {
      return write(observations, atMs);
    } catch (error) {
      hostSamples.discard();
      gpuSamples.discard();
      cache.latestRows = undefined;
      Object.assign(cache, loadFleetCache(db));
      throw error;
    }
  };
}

/** A number as SQLite gives it back: NaN is stored as NULL. */
function asStored(value: number | null): number | null {
  return value === null || Number.isNaN(value) ? null : value;
}

/** The stored shape: an observation is itself an `Evidence`, with readings the row does not need. */
function evidenceOf(evidence: Evidence): Evidence {
  return {
    gpus: evidence.gpus.map((gpu) => ({ index: gpu.index, processes: gpu.processes })),
    sessions: evidence.sessions,
    containers: evidence.containers,
  };
}

/**
 * `identity` when the processes, sessions or containers themselves differ; `numbers` when only
 * their drifting figures do (process memory, session idle minutes, container CPU usage).
 */
function compareEvidence(evidence: Evidence, observation: OkObservation): "same" | "numbers" | "identity" {
  let numbers = false;
  if (evidence.gpus.length !== observation.gpus.length) return "identity";
  for (let i = 0; i < evidence.gpus.length; i++) {
    const before = evidence.gpus[i]!;
    const now = observation.gpus[i]!;
    if (before.index !== now.index || before.processes.length !== now.processes.length) return "identity";
    for (let j = 0; j < before.processes.length; j++) {
      const a = before.processes[j]!;
      const b = now.processes[j]!;
      if (
        a.pid !== b.pid ||
        a.user !== b.user ||
        a.name !== b.name ||
        a.container !== b.container ||
        a.pod !== b.pod ||
        a.namespace !== b.namespace
      ) {
        return "identity";
      }
      if (a.usedMemoryMiB !== b.usedMemoryMiB) numbers = true;
    }
  }
  if (evidence.sessions === null || observation.sessions === null) {
    if (evidence.sessions !== observation.sessions) return "identity";
  } else {
    if (evidence.sessions.length !== observation.sessions.length) return "identity";
    for (let j = 0; j < evidence.sessions.length; j++) {
      const a = evidence.sessions[j]!;
      const b = observation.sessions[j]!;
      if (a.user !== b.user || a.line !== b.line || a.from !== b.from) return "identity";
      if (a.idleMinutes !== b.idleMinutes) numbers = true;
    }
  }
  if (evidence.containers.length !== observation.containers.length) return "identity";
  for (let j = 0; j < evidence.containers.length; j++) {
    const a = evidence.containers[j]!;
    const b = observation.containers[j]!;
    if (
      a.namespace !== b.namespace ||
      a.pod !== b.pod ||
      a.container !== b.container ||
      a.cpuRequestCores !== b.cpuRequestCores ||
      a.gpuRequest !== b.gpuRequest
    ) {
      return "identity";
    }
    if (a.cpuUsageCores !== b.cpuUsageCores) numbers = true;
  }
  return numbers ? "numbers" : "same";
}
