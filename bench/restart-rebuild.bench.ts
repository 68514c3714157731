import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { configSchema } from "../src/config/schema.ts";
import type { GpuReading, HostObservation } from "../src/domain/observation.ts";
import { MINUTE_MS } from "../src/shared/clock.ts";
import type { AlertRun } from "../src/usecases/alerts/idle-alert-run.ts";
import { SNAPSHOT_EVERY_SWEEPS, saveIdleSnapshot } from "../src/usecases/alerts/idle-snapshot.ts";
import { restoreStates } from "../src/usecases/alerts/restore-states.ts";
import { withAlertRun } from "../test/helpers/with-alert-run.ts";
import { median, report, round } from "./report.ts";

// The restart's idle-state rebuild over a store holding `--cycles=180` polls (a full restore window at
// the default 60 s poll) of `--hosts=2000` hosts × 8 GPUs: the whole window replayed (no snapshot)
// against the snapshot plus the polls after it, and what writing the snapshot costs a sweep.
const flag = (name: string, fallback: number): number => {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};
const HOSTS = flag("hosts", 2_000);
const CYCLES = flag("cycles", 180);
const GPUS = 8;
const T0 = Date.UTC(2026, 0, 5, 6, 0);
const config = configSchema.parse({ slack: { channel: "C0GPU" } });

function gpu(index: number, utilPct: number): GpuReading {
  return {
    index,
    uuid: `GPU-${index}`,
    model: "NVIDIA H100 80GB HBM3",
    utilPct,
    memUsedMiB: utilPct > 0 ? 60_000 : 4,
    memTotalMiB: 81_559,
    powerW: 70 + utilPct * 5,
    tempC: 35,
    mig: false,
    processes: [],
  };
}

function observation(h: number, cycle: number, atMs: number): HostObservation {
  const host = `node-${String(h).padStart(5, "0")}`;
  if (h % 50 === 7 && cycle % 9 === 0)
    return { host, source: "simulated", atMs, ok: false, cause: "timeout", message: "timeout" };
  const busy = h % 4 === 0 || (h % 4 === 1 && cycle < CYCLES / 2);
  const gpus = Array.from({ length: GPUS }, (_, i) => gpu(i, busy ? 80 + i : 0));
  return {
    host,
    source: "simulated",
    atMs,
    ok: true,
    gpus,
    sessions: [],
    cpuLoad1: 1,
    cpuUtilPct: 3,
    containers: [],
  };
}

function withRun<T>(path: string, nowMs: number, use: (run: AlertRun, db: Database) => T): T {
  return withAlertRun(path, config, nowMs, use);
}

function cpuMs<T>(fn: () => T): { ms: number; cpuMs: number; value: T } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, value };
}

const dir = mkdtempSync(join(tmpdir(), "gw-restart-rebuild-"));
const path = join(dir, "store.db");
try {
  const lastMs = T0 + (CYCLES - 1) * MINUTE_MS;
  const write = (from: number, to: number) =>
    cpuMs(() =>
      withRun(path, lastMs, (run) => {
        for (let c = from; c < to; c++) {
          const atMs = T0 + c * MINUTE_MS;
          run.metrics.writeCycle(
            Array.from({ length: HOSTS }, (_, h) => observation(h, c, atMs)),
            atMs,
          );
        }
      }),
    ).ms;
  // NOTE: the snapshot is taken SNAPSHOT_EVERY_SWEEPS polls before the restart: the most a host's can lag.
  const snapshotCycle = Math.max(0, CYCLES - SNAPSHOT_EVERY_SWEEPS);
  let writtenMs = write(0, snapshotCycle + 1);
  const writeCost = (every: number) =>
    withRun(path, T0 + snapshotCycle * MINUTE_MS, (run) => {
      restoreStates(run, null);
      return Array.from({ length: 5 }, () => {
        run.states = new Map([...run.states].map(([host, state]) => [host, { ...state }]));
        return cpuMs(() => run.transaction(() => saveIdleSnapshot(run, every))).ms;
      });
    });
  const shareWrites = writeCost(SNAPSHOT_EVERY_SWEEPS);
  const allWrites = writeCost(1);
  writtenMs += write(snapshotCycle + 1, CYCLES);
  const restartMs = lastMs + 30_000;
  const rebuild = (dropSnapshot: boolean) =>
    withRun(path, restartMs, (run, db) => {
      if (dropSnapshot) db.exec("DELETE FROM idle_snapshot");
      return cpuMs(() => restoreStates(run, null));
    });
  const after = rebuild(false);
  const before = rebuild(true);
  writeCost(1);
  const afterAgain = rebuild(false);
  report({
    name: "restart-rebuild",
    hosts: HOSTS,
    gpus: HOSTS * GPUS,
    cycles: CYCLES,
    unit: "ms",
    value: round(after.cpuMs, 0),
    full_replay_cpu_ms: round(before.cpuMs, 0),
    full_replay_ms: round(before.ms, 0),
    snapshot_cpu_ms: round(after.cpuMs, 0),
    snapshot_ms: round(after.ms, 0),
    snapshot_at_last_poll_cpu_ms: round(afterAgain.cpuMs, 0),
    polls_after_snapshot: CYCLES - 1 - snapshotCycle,
    snapshot_write_ms: round(median(shareWrites), 1),
    snapshot_write_all_hosts_ms: round(median(allWrites), 1),
    store_written_s: round(writtenMs / 1000, 1),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
