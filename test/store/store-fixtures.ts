import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import type { GpuReading, HostObservation, HostReadings } from "../../src/domain/observation.ts";
import { createMetricsStore, type MetricsStoreOptions } from "../../src/store/metrics-store.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import type { GpuPeriodTotals } from "../../src/store/summary-store.ts";

/** A temp folder for database files; `remove()` in an `after` hook. */
export function tempDir(prefix: string): { file(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { file: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface OpenStore {
  db: Database;
  store: MetricsStore;
  close(): void;
}

export function openStore(file: string, options: MetricsStoreOptions = {}): OpenStore {
  const db = openDatabase(file);
  return { db, store: createMetricsStore(db, options), close: () => db.close() };
}

export function gpu(index: number, readings: Partial<GpuReading> = {}): GpuReading {
  return {
    index,
    uuid: `GPU-0000000${index}-aaaa-bbbb-cccc-dddddddddddd`,
    model: "NVIDIA A100-SXM4-80GB",
    utilPct: 0,
    memUsedMiB: 0,
    memTotalMiB: 81_920,
    powerW: 60,
    tempC: 30,
    mig: false,
    processes: [],
    ...readings,
  };
}

export function okHost(host: string, atMs: number, readings: Partial<HostReadings> = {}): HostObservation {
  return {
    host,
    source: "ssh",
    atMs,
    ok: true,
    gpus: [gpu(0)],
    sessions: [],
    cpuLoad1: 0.5,
    cpuUtilPct: 3,
    containers: [],
    ...readings,
  };
}

export function failedHost(host: string, atMs: number): HostObservation {
  return {
    host,
    source: "ssh",
    atMs,
    ok: false,
    cause: "timeout",
    message: `${host}: no answer within 10 s`,
  };
}

/** Row counts straight from SQLite, for assertions on what is physically stored. */
export function count(db: Database, sql: string, ...params: unknown[]): number {
  return db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}

/** `gpu_hour`'s own `GROUP BY gpu_id` totals (SQL, no packs) in the fields the summary's trend reads. */
export function sqlGpuTotals(store: MetricsStore, fromMs: number, toMs: number): GpuPeriodTotals[] {
  return store
    .rollupTotals(fromMs, toMs)
    .map(({ host, index, hours, utilMeanPct, busyMinutes, idleMinutes, unknownMinutes, energyWh }) => ({
      host,
      index,
      hours,
      utilMeanPct,
      busyMinutes,
      idleMinutes,
      unknownMinutes,
      energyWh,
    }));
}

/** Per-GPU lists in one order (host, then index), to compare. */
export const byGpu = <T extends { host: string; index: number }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.index - b.index));

/** A reading that differs per GPU and poll (fractions of minutes, sometimes no utilisation or power). */
export function variedReading(index: number, step: number): GpuReading {
  const util = ((index * 37 + step * 13) % 101) / 3;
  return gpu(index, {
    utilPct: (index + step) % 11 === 0 ? null : util,
    powerW: (index * 3 + step) % 7 === 0 ? null : 70 + util * 4.1,
  });
}

/** One poll of the summary tests' fleet: gpu-a with 2 GPUs, gpu-b with 4, gpu-c failing now and then. */
export function variedFleet(atMs: number, step: number): HostObservation[] {
  return [
    okHost("gpu-a", atMs, { gpus: [0, 1].map((i) => variedReading(i, step)) }),
    okHost("gpu-b", atMs, { gpus: [0, 1, 2, 3].map((i) => variedReading(i + 2, step)) }),
    step % 9 < 3
      ? failedHost("gpu-c", atMs)
      : okHost("gpu-c", atMs, { gpus: [0, 1].map((i) => variedReading(i + 6, step)) }),
  ];
}

/** Costs with a night tariff window, as the summary tests price them. */
export const VALLEY_COSTS = {
  electricity: {
    price_per_kwh: 0.3,
    windows: [{ name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.17 }],
  },
};
