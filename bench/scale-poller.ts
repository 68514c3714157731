import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineRawRetentionDays, rawRetentionDays } from "../src/config/raw-retention.ts";
import { configSchema } from "../src/config/schema.ts";
import { botStoresOf } from "../src/main/bot-stores.ts";
import { HOUR_MS, MINUTE_MS, systemClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { createSources } from "../src/sources/create-sources.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { pollFleet } from "../src/usecases/fleet/poll-fleet.ts";
import { median } from "./report.ts";

// The poller of `scale.bench.ts`, in its own process so that its RSS is the bot's alone (the engines
// and the exporters run elsewhere): the real sources (one Prometheus source per cluster), pollFleet and
// the real SQLite store. Prints one JSON line.
interface Job {
  urls: string[];
  cycles: number;
  gpus: number;
}

const job = JSON.parse(process.argv[2] ?? "{}") as Job;
const dir = mkdtempSync(join(tmpdir(), "gw-scale-"));
try {
  const config = configSchema.parse({
    sources: job.urls.map((url, i) => ({
      kind: "prometheus",
      cluster: String.fromCharCode(97 + i),
      url,
      history_days: 0,
      timeout_seconds: 120,
    })),
  });
  const db = openDatabase(join(dir, "gpu-warden.db"));
  const { store } = botStoresOf(db, config, systemClock);
  const sources = createSources(config, {
    clock: systemClock,
    logger: silentLogger,
    hostName: "bench",
    pathEnv: "",
  });
  const cycleMs: number[] = [];
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
      const cause = observation.ok ? "ok" : `${observation.cause}: ${observation.message.slice(0, 120)}`;
      causes[cause] = (causes[cause] ?? 0) + 1;
    }
    if (cycle > 0) cycleMs.push(result.durationMs);
  }
  globalThis.gc?.();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const rawBytes = tableBytes(db, ["host_sample", "gpu_sample", "cycle"]);
  const rawSamples = okGpus * (job.cycles + 1);
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
