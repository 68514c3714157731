import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import type { GpuReading, HostObservation } from "../src/domain/observation.ts";
import { DAY_MS, MINUTE_MS } from "../src/shared/clock.ts";
import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { report, round } from "./report.ts";
import { unitHash } from "./unit-hash.ts";

// 14 days of 1,000 GPUs (125 hosts × 8) polled every minute, written through writeCycle, then
// rolled up; sizes after the rollup and after pruning raw samples beyond 8 days, and the yearly
// growth they project: 365 days of hourly rollups plus a steady 8-day window of raw samples.
const HOSTS = 125;
const GPUS_PER_HOST = 8;
const DAYS = 14;
const RAW_RETENTION_DAYS = 8;
const IDLE_UTIL_PCT = 10;
const START_MS = Date.UTC(2026, 0, 5);
const TARGET_BYTES_PER_YEAR = 1.5e9;

type Role = "training" | "interactive" | "forgotten" | "notebook" | "flaky";
const ROLES: Role[] = [
  "training",
  "training",
  "training",
  "interactive",
  "interactive",
  "forgotten",
  "notebook",
  "flaky",
];

const hosts = Array.from({ length: HOSTS }, (_, h) => {
  const role = ROLES[h % ROLES.length]!;
  const gpus: GpuReading[] = Array.from({ length: GPUS_PER_HOST }, (_, index) => ({
    index,
    uuid: `GPU-${h.toString(16).padStart(8, "0")}-${index}a1b-4c2d-9e3f-5a6b7c8d9e0f`,
    model: "NVIDIA A100-SXM4-80GB",
    utilPct: 0,
    memUsedMiB: 0,
    memTotalMiB: 81_920,
    powerW: 60,
    tempC: 30,
    mig: false,
    processes: [],
  }));
  const ok: HostObservation = {
    host: `gpu-${String(h + 1).padStart(3, "0")}`,
    source: "ssh",
    atMs: START_MS,
    ok: true,
    gpus,
    sessions: [],
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  };
  return { h, role, ok, gpus };
});

/** Whether the host runs work at `minute`: multi-hour training runs, office hours, or nothing. */
function working(role: Role, h: number, minute: number): boolean {
  const hourOfDay = Math.floor(minute / 60) % 24;
  const day = Math.floor(minute / 1440);
  const weekday = (day + 1) % 7 < 5;
  switch (role) {
    case "training":
      return unitHash(h, Math.floor(minute / 360)) < 0.6;
    case "interactive":
    case "flaky":
      return weekday && hourOfDay >= 9 && hourOfDay < 18 && unitHash(h, Math.floor(minute / 45)) < 0.7;
    case "forgotten":
    case "notebook":
      return false;
    default:
      return role satisfies never;
  }
}

function observe(minute: number): HostObservation[] {
  const atMs = START_MS + minute * MINUTE_MS;
  return hosts.map(({ h, role, ok, gpus }): HostObservation => {
    if (role === "flaky" && unitHash(h, minute) < 0.05) {
      return {
        host: ok.host,
        source: "ssh",
        atMs,
        ok: false,
        cause: "timeout",
        message: `${ok.host}: timed out`,
      };
    }
    const busy = working(role, h, minute);
    for (const gpu of gpus) {
      const noise = unitHash(h * 8 + gpu.index, minute);
      gpu.utilPct = busy ? 70 + Math.floor(noise * 30) : 0;
      gpu.memUsedMiB = busy ? 60_000 + gpu.index * 100 : role === "notebook" ? 20_480 : 0;
      gpu.powerW = busy ? round(280 + noise * 120, 2) : round(55 + noise * 10, 2);
      gpu.tempC = busy ? 65 + Math.floor(noise * 15) : 33;
    }
    ok.atMs = atMs;
    return ok;
  });
}

function bytesByTable(db: Database): Record<string, number> {
  const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as {
    name: string;
    bytes: number;
  }[];
  return Object.fromEntries(rows.map((row) => [row.name, row.bytes]));
}

const dir = mkdtempSync(join(tmpdir(), "gpu-warden-rollup-"));
try {
  const file = join(dir, "store.db");
  const db = openDatabase(file);
  const store = createMetricsStore(db);
  const minutes = DAYS * 1440;

  const ingestStarted = performance.now();
  for (let minute = 0; minute < minutes; minute++)
    store.writeCycle(observe(minute), START_MS + minute * MINUTE_MS);
  const ingestSeconds = (performance.now() - ingestStarted) / 1000;
  const samples = db.prepare("SELECT count(*) FROM gpu_sample").pluck().get() as number;

  const endMs = START_MS + DAYS * DAY_MS;
  const rollupStarted = performance.now();
  const rollupCpu = process.cpuUsage();
  const rolled = store.rollup(endMs + 10 * MINUTE_MS, IDLE_UTIL_PCT, Number.POSITIVE_INFINITY);
  const rollupSeconds = (performance.now() - rollupStarted) / 1000;
  const rollupCpuUsed = process.cpuUsage(rollupCpu);
  const rollupCpuSeconds = (rollupCpuUsed.user + rollupCpuUsed.system) / 1e6;
  db.pragma("wal_checkpoint(TRUNCATE)");
  const bytesAfterRollup = statSync(file).size;
  const rollupRows = db.prepare("SELECT count(*) FROM gpu_hour").pluck().get() as number;

  const pruneStarted = performance.now();
  let pruned = 0;
  for (;;) {
    const result = store.prune(endMs, RAW_RETENTION_DAYS, 400, 1_440);
    pruned += result.cycles;
    if (result.complete) break;
  }
  const pruneSeconds = (performance.now() - pruneStarted) / 1000;
  db.pragma("wal_checkpoint(TRUNCATE)");
  const bytesAfterPrune = statSync(file).size;
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const freePages = db.pragma("freelist_count", { simple: true }) as number;
  const tables = bytesByTable(db);
  db.close();

  const rollupBytes = (tables.gpu_hour ?? 0) * (365 / DAYS);
  const rawBytes8Days =
    (tables.gpu_sample ?? 0) + (tables.host_sample ?? 0) + (tables.cycle ?? 0) + (tables.cycle_at_ms ?? 0);
  const projectedBytesPerYear = Math.round(rollupBytes + rawBytes8Days);
  report({
    name: "rollup",
    value: round(rollupSeconds, 2),
    unit: "s",
    baseline: null,
    ratio: null,
    gpus: HOSTS * GPUS_PER_HOST,
    days: DAYS,
    samples,
    rollupCpuSeconds: round(rollupCpuSeconds, 2),
    hoursRolledUp: rolled.hours,
    rollupRows,
    ingestSeconds: round(ingestSeconds, 1),
    ingestSamplesPerSecond: Math.round(samples / ingestSeconds),
    pruneSeconds: round(pruneSeconds, 2),
    cyclesPruned: pruned,
    bytesAfterRollup,
    bytesAfterPrune,
    usedBytesAfterPrune: bytesAfterPrune - freePages * pageSize,
    rawBytes8Days,
    rollupBytes14Days: tables.gpu_hour ?? 0,
    rollupBytesPerGpuHour: round((tables.gpu_hour ?? 0) / rollupRows, 1),
    projectedBytesPerYear,
    targetBytesPerYear: TARGET_BYTES_PER_YEAR,
    withinTarget: projectedBytesPerYear <= TARGET_BYTES_PER_YEAR,
    hourlyRollupMs: round((rollupSeconds * 1000) / Math.max(1, rolled.hours), 1),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
