import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { engineRawRetentionDays, rawRetentionDays } from "../src/config/raw-retention.ts";
import { type Config, configSchema } from "../src/config/schema.ts";
import { type BotStores, botStoresOf } from "../src/main/bot-stores.ts";
import { HOUR_MS, MINUTE_MS, systemClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { createSources } from "../src/sources/create-sources.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { idlePolicyOf, restoreWindowMinutes } from "../src/usecases/alerts/alert-policy.ts";
import { pollFleet } from "../src/usecases/fleet/poll-fleet.ts";
import { HISTORY_DEADLINE_MS, seedHistory } from "../src/usecases/fleet/seed-history.ts";
import { median } from "./report.ts";

// The poller of `scale.bench.ts`, in its own process so that its RSS is the bot's alone (the engines
// and the exporters run elsewhere): the real sources (one Prometheus source per cluster), pollFleet and
// the real SQLite store. Prints one JSON line.
interface Job {
  urls: string[];
  cycles: number;
  gpus: number;
  /** The sources' `history_days`: > 0 runs the look-back of a start over a fresh store first. */
  historyDays: number;
  /** Where a copy of the store is left after the cycles (before the rollup): the restart's store. */
  keepStore?: string;
  /** The engines' processes: their CPU time during the look-back is reported. */
  enginePids?: number[];
}

/** The sources' errors go to stderr (a cycle that fails says why); nothing else is logged. */
const errorsToStderr = pino({ level: "error" }, pino.destination(2));
const job = JSON.parse(process.argv[2] ?? "{}") as Job;
const dir = mkdtempSync(join(tmpdir(), "gw-scale-"));
try {
  const config = configSchema.parse({
    sources: job.urls.map((url, i) => ({
      kind: "prometheus",
      cluster: String.fromCharCode(97 + i),
      url,
      history_days: job.historyDays,
      timeout_seconds: 120,
    })),
  });
  const db = openDatabase(join(dir, "gpu-warden.db"));
  const { store } = botStoresOf(db, config, systemClock);
  const sources = createSources(config, {
    clock: systemClock,
    logger: errorsToStderr,
    hostName: "bench",
    pathEnv: "",
  });
  if (process.env.SCALE_TRACE) traceHeap(sources);
  const lookBack = job.historyDays > 0 ? await timedLookBack(config, sources, store) : null;
  const cycleMs: number[] = [];
  const cpuMs: number[] = [];
  const writeMs: number[] = [];
  const timedStore = {
    writeCycle: (observations: Parameters<typeof store.writeCycle>[0], atMs: number) => {
      const started = performance.now();
      store.writeCycle(observations, atMs);
      writeMs.push(performance.now() - started);
    },
  };
  let okGpus = 0;
  let causes: Record<string, number> = {};
  for (let cycle = 0; cycle <= job.cycles; cycle++) {
    const cpuBefore = process.cpuUsage();
    const result = await pollFleet({
      sources,
      store: timedStore,
      clock: systemClock,
      logger: silentLogger,
      metrics: null,
      timeoutMs: 300_000,
    });
    okGpus = result.gpuSamples;
    causes = {};
    for (const observation of result.observations) {
      const message = observation.ok ? "" : observation.message.replace(/node-\d+/g, "node-N");
      const cause = observation.ok ? "ok" : `${observation.cause}: ${message.slice(0, 300)}`;
      causes[cause] = (causes[cause] ?? 0) + 1;
    }
    const cpu = process.cpuUsage(cpuBefore);
    if (cycle > 0) {
      cycleMs.push(result.durationMs);
      cpuMs.push((cpu.user + cpu.system) / 1000);
    }
  }
  globalThis.gc?.();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  if (job.keepStore) db.prepare("VACUUM INTO ?").run(job.keepStore);
  const rawBytes = tableBytes(db, ["host_sample", "gpu_sample", "cycle"]);
  const rawSamples = (db.prepare("SELECT count(*) AS n FROM gpu_sample").get() as { n: number }).n;
  store.rollup(Math.ceil(systemClock.now() / HOUR_MS) * HOUR_MS + 5 * MINUTE_MS, 10);
  const rollupBytes = tableBytes(db, ["gpu_hour", "host_hour"]);
  const rollupRows = (db.prepare("SELECT count(*) AS n FROM gpu_hour").get() as { n: number }).n;
  const rolledUpMs = Math.ceil(systemClock.now() / HOUR_MS) * HOUR_MS + 5 * MINUTE_MS;
  const engineDays = engineRawRetentionDays(config);
  const pastWindowMs = rolledUpMs + engineDays * 24 * HOUR_MS;
  while (!store.prune(pastWindowMs, rawRetentionDays(config), 400, 500, engineDays).complete);
  const rawRowsLeft = (db.prepare("SELECT count(*) AS n FROM gpu_sample").get() as { n: number }).n;
  db.close();
  process.stdout.write(
    `${JSON.stringify({
      cycle_ms: median(cycleMs),
      cycles: cycleMs.length,
      cpu_ms: median(cpuMs),
      look_back: lookBack,
      write_ms: median(writeMs.slice(1)),
      heap_mb: heapMb,
      ok_gpus: okGpus,
      hosts_by_cause: causes,
      rss_mb: rssMb,
      peak_rss_mb: peakRssMb,
      raw_bytes_per_gpu_sample: rawBytes / Math.max(1, rawSamples),
      rollup_bytes_per_gpu_hour: rollupBytes / Math.max(1, rollupRows),
      raw_retention_days: engineDays,
      raw_rows_after_rollup: rawRowsLeft,
    })}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The look-back of a start over a fresh store (`restoreHistory` then runs `seedHistory`), timed. */
async function timedLookBack(
  config: Config,
  sources: ReturnType<typeof createSources>,
  store: BotStores["store"],
) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const engineCpuBefore = enginesCpuMs(job.enginePids ?? []);
  const seeded = await seedHistory(
    { sources, store, clock: systemClock, logger: errorsToStderr },
    {
      pollStepMs: config.poll.interval_seconds * 1000,
      windowMs: restoreWindowMinutes(idlePolicyOf(config)) * MINUTE_MS,
    },
    AbortSignal.timeout(HISTORY_DEADLINE_MS),
  );
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  return {
    ms: Math.round(ms),
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    engine_cpu_ms: enginesCpuMs(job.enginePids ?? []) - engineCpuBefore,
    queries: seeded?.queries ?? 0,
    hosts: seeded?.prior.byHost.size ?? 0,
    cycles: seeded?.cycles ?? 0,
    rss_mb: Math.round(rssMb),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

/** The processes' user + system CPU time so far (ms), from `/proc/PID/stat` (clock ticks of 10 ms). */
function enginesCpuMs(pids: readonly number[]): number {
  let ms = 0;
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    ms += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return ms;
}

/** Bytes on disk of the tables (and their indexes) whose names start with one of `prefixes`. */
function tableBytes(db: ReturnType<typeof openDatabase>, prefixes: string[]): number {
  const rows = db
    .prepare("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")
    .all() as {
    name: string;
    tbl_name: string;
  }[];
  const names = rows.filter((row) => prefixes.includes(row.tbl_name)).map((row) => row.name);
  const size = db.prepare("SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name = ?");
  return names.reduce((sum, name) => sum + (size.get(name) as { bytes: number }).bytes, 0);
}

/** SCALE_TRACE=1: each history call's start and end with the heap's high-water mark, on stderr. */
function traceHeap(sources: ReturnType<typeof createSources>): void {
  let high = 0;
  setInterval(() => {
    high = Math.max(high, process.memoryUsage().heapUsed);
  }, 20).unref();
  for (const source of sources as unknown as Record<string, unknown>[]) {
    for (const name of ["history", "busiestHistory"]) {
      const call = source[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (!call) continue;
      source[name] = async (...args: unknown[]) => {
        high = 0;
        const started = performance.now();
        const out = await call(...args);
        process.stderr.write(
          `${name} ${Math.round(performance.now() - started)} ms, heap high ${Math.round(high / 2 ** 20)} MB\n`,
        );
        return out;
      };
    }
  }
}
