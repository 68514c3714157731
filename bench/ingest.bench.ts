import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import type { HostObservation } from "../src/domain/observation.ts";
import { MINUTE_MS } from "../src/shared/clock.ts";
import { SimulatedFleet } from "../src/sources/simulated-fleet.ts";
import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { median, report, round } from "./report.ts";

// One poll cycle of 1,000 hosts × 8 GPUs of the simulated fleet through writeCycle, against a bare
// prepared insert of the same rows into an append-only table (same connection settings), both with
// history present. History replays one observed cycle (simulating the fleet costs ~150 ms a cycle).
const HOSTS = 1_000;
const GPUS_PER_HOST = 8;
const HISTORY_CYCLES = 240;
const RUNS = 31;
/** A Tuesday morning: training runs, notebooks, idle hosts and a few unreachable ones. */
const START_MS = Date.UTC(2026, 0, 6, 8, 0, 0);

const fleet = new SimulatedFleet({
  hosts: HOSTS,
  gpusPerHost: GPUS_PER_HOST,
  seed: 7,
  timezone: "Europe/Berlin",
});

function createBaseline(db: Database): (observations: readonly HostObservation[], atMs: number) => void {
  db.exec(`CREATE TABLE baseline_sample (
    ts INTEGER NOT NULL, gpu INTEGER NOT NULL,
    util_pct REAL, mem_used_mib REAL, power_w REAL, temp_c REAL)`);
  const insert = db.prepare("INSERT INTO baseline_sample VALUES (?, ?, ?, ?, ?, ?)");
  return db.transaction((observations: readonly HostObservation[], atMs: number) => {
    for (let h = 0; h < observations.length; h++) {
      const observation = observations[h]!;
      if (observation.ok) {
        for (const gpu of observation.gpus) {
          insert.run(atMs, h * GPUS_PER_HOST + gpu.index, gpu.utilPct, gpu.memUsedMiB, gpu.powerW, gpu.tempC);
        }
      } else {
        for (let i = 0; i < GPUS_PER_HOST; i++)
          insert.run(atMs, h * GPUS_PER_HOST + i, null, null, null, null);
      }
    }
  });
}

/** CPU time of this process since `start`: less disturbed than wall time by other load on the machine. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const dir = mkdtempSync(join(tmpdir(), "gpu-warden-ingest-"));
try {
  const ourDb = openDatabase(join(dir, "store.db"));
  const baseDb = openDatabase(join(dir, "baseline.db"), { migrations: [] });
  const store = createMetricsStore(ourDb);
  const baseline = createBaseline(baseDb);

  const replayed = fleet.observe(START_MS);
  let cycle = 0;
  for (; cycle < HISTORY_CYCLES; cycle++) {
    const atMs = START_MS + cycle * MINUTE_MS;
    store.writeCycle(replayed, atMs);
    baseline(replayed, atMs);
  }

  const ours: number[] = [];
  const theirs: number[] = [];
  const oursCpu: number[] = [];
  const theirsCpu: number[] = [];
  let samples = 0;
  let evidenceWrites = 0;
  let failedHosts = 0;
  for (let run = 0; run < RUNS; run++, cycle++) {
    const atMs = START_MS + cycle * MINUTE_MS;
    const observations = fleet.observe(atMs);
    const sides = run % 2 === 0 ? ["ours", "baseline"] : ["baseline", "ours"];
    for (const side of sides) {
      gc();
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      if (side === "ours") {
        const written = store.writeCycle(observations, atMs);
        ours.push(performance.now() - started);
        oursCpu.push(cpuMs(cpuStarted));
        samples = written.gpuSamples;
        failedHosts += observations.filter((observation) => !observation.ok).length;
        evidenceWrites += written.evidenceWrites;
      } else {
        baseline(observations, atMs);
        theirs.push(performance.now() - started);
        theirsCpu.push(cpuMs(cpuStarted));
      }
    }
  }
  ourDb.close();
  baseDb.close();

  const oursMs = median(ours);
  const baselineMs = median(theirs);
  report({
    name: "ingest",
    value: Math.round(samples / (oursMs / 1000)),
    unit: "samples/s",
    baseline: Math.round((HOSTS * GPUS_PER_HOST) / (baselineMs / 1000)),
    ratio: round(oursMs / baselineMs, 3),
    samples,
    hosts: HOSTS,
    runs: RUNS,
    historyCycles: HISTORY_CYCLES,
    oursP50Ms: round(oursMs, 2),
    baselineP50Ms: round(baselineMs, 2),
    pairedRatioP50: round(median(ours.map((ms, i) => ms / theirs[i]!)), 3),
    cpuRatio: round(median(oursCpu) / median(theirsCpu), 3),
    evidenceWritesPerCycle: round(evidenceWrites / RUNS, 1),
    failedHostsPerCycle: round(failedHosts / RUNS, 1),
    statements: "ours: multi-row INSERTs of 64 rows; baseline: one INSERT per row",
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
