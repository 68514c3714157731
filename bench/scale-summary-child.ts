import { createHash } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { webApi } from "@slack/bolt";
import { createOutboxWorker } from "../src/bot/outbox/outbox-worker.ts";
import { createReaders } from "../src/bot/readers.ts";
import { botWords } from "../src/bot/views/renderers.ts";
import { botStoresOf } from "../src/main/bot-stores.ts";
import { HOUR_MS, ManualClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import type { PrometheusClient } from "../src/sources/prometheus-api.ts";
import { summaryPrometheus } from "../src/sources/summary-prometheus.ts";
import { createClaimStore } from "../src/store/claim-store.ts";
import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { createSummaryStore } from "../src/store/summary-store.ts";
import { buildSummary, summaryPeriod } from "../src/usecases/ledger/build-summary.ts";
import { type PostSummaryDeps, postSummary } from "../src/usecases/ledger/post-summary.ts";
import type { SummaryWords } from "../src/usecases/ledger/summary-words.ts";
import { clusterHostNames, PREVIOUS_KEPT_MARK, type SummaryJob } from "./scale-summary.ts";
import { fillSummaryStore, summaryFleetConfig } from "./summary-fleet.ts";

// The biweekly summary of `scale.bench.ts`, in its own process under the bot's heap flags: `build`
// writes the 28-day store (bench/summary-fleet.ts); else, over that store (in a transaction rolled
// back, so the kept file stays as built), the bot's summary deps as `botJobs` wires them (its stores,
// its words, every engine as the container section's Prometheus, the outbox queueing unsent).
// First the summary with its chart (the model, the message, the chart, the CSVs), then the whole
// `postSummary` (adding the hour-of-week heatmap and the queueing). Each part's end is a JSON line on
// stderr as it happens (a process that dies still says how far it got); the figures on stdout.
const job = JSON.parse(process.argv[2] ?? "{}") as SummaryJob;
const names = clusterHostNames(job.hosts, job.clusters);
const config = summaryFleetConfig(names, {
  sources: job.urls.map((url, i) => ({
    kind: "prometheus",
    cluster: String.fromCharCode(97 + i),
    url,
    timeout_seconds: 120,
  })),
});
const db = openDatabase(job.store);
if (job.build) {
  const metrics = createMetricsStore(db, { sampleSpanMaxMs: HOUR_MS });
  fillSummaryStore({ db, metrics, claims: createClaimStore(db), config }, names, job.slotMs, "prometheus");
  db.close();
  process.exit(0);
}

const started = performance.now();
const engine = { first: null as number | null, ms: null as number | null, series: 0, done: 0 };
const mark = (part: string) =>
  process.stderr.write(`${JSON.stringify({ part, ms: Math.round(performance.now() - started) })}\n`);
db.exec("BEGIN");
const clock = new ManualClock(job.slotMs);
const stores = botStoresOf(db, config, clock);
const words = timedWords(botWords(createReaders(config.team)).summaryWords, mark);
const outbox = createOutboxWorker({
  store: stores.state,
  client: {} as webApi.WebClient,
  clock,
  logger: silentLogger,
  postIntervalMs: 0,
});
const deps: PostSummaryDeps = {
  config,
  metrics: stores.store,
  rolledUpToMs: stores.costStores.rolledUpToMs,
  rollUp: stores.costWarden.costLedger.rollUp,
  summaries: createSummaryStore(db),
  claims: stores.state.claims,
  reclaims: stores.reclaims,
  prometheus: summaryPrometheus(config).map((source) => ({ ...source, client: timedEngine(source.client) })),
  logger: silentLogger,
  notifier: outbox,
  warden: { current: () => null },
  summaryWords: words,
};
mark("opened");
const keptMs = await keepPreviousSums();
// NOTE: the summary starts from a collected heap, as in the bot (where the sums were kept 14 days before).
collectGarbage();
// NOTE: in a function, so that its model, chart and CSVs are garbage before the post builds its own,
// as in the bot (which builds one summary a slot): module-level constants would stay alive.
await summaryAlone();
const t1 = performance.now();
const posted = await postSummary(deps, {
  atMs: job.slotMs,
  late: false,
  commit: (effect) => {
    effect();
    return true;
  },
});
const postMs = performance.now() - t1;
mark("post");
const queued = stores.state.outbox.pendingCount();
db.exec("ROLLBACK");
db.close();
figures({
  post_ms: Math.round(postMs),
  heatmap_png_bytes: posted.heatmap.png.length,
  heatmap_rows_shown: posted.heatmap.rowsShown,
  outbox_items: queued,
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
});

/** The container section's queries to the engines: ms from the first sent to the last answered (the first summary's), series answered. */
function timedEngine(client: PrometheusClient): PrometheusClient {
  return {
    ...client,
    queryVector: async (promql, options) => {
      engine.first ??= performance.now();
      const answer = await client.queryVector(promql, options);
      if (engine.ms === null || engine.done < 6 * job.urls.length) {
        engine.ms = Math.round(performance.now() - engine.first);
        engine.series += answer.length;
        engine.done++;
      }
      return answer;
    },
  };
}

/** A full garbage collection now (the child is not started with `--expose-gc`). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** The first 16 hex digits of the SHA-256 of `data` (old and new output compared). */
function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 16);
}

/** One line of figures on stdout (the parent merges them). */
function figures(out: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** `words` marking the end of each rendering it does. */
function timedWords(words: SummaryWords, done: (part: string) => void): SummaryWords {
  const timed =
    <A extends unknown[], R>(part: string, render: (...args: A) => R) =>
    (...args: A): R => {
      const out = render.apply(words, args);
      done(part);
      return out;
    };
  return {
    ...words,
    summary: timed("message", words.summary),
    chart: timed("chart", words.chart),
    heatmap: timed("heatmap", words.heatmap),
    csv: timed("csv", words.csv),
  };
}

/**
 * What the summary 14 days before left (unless `trend` is `packs`): its period's sums kept (schema step
 * 17), read by this summary's trend instead of that period's packs. Untimed; ms taken, or `null`.
 */
async function keepPreviousSums(): Promise<number | null> {
  if (job.trend === "packs") return null;
  const t0 = performance.now();
  const period = summaryPeriod(job.slotMs, config.team.timezone);
  const previous = summaryPeriod(period.fromMs, config.team.timezone);
  await deps.summaries.keepTotals(previous.fromMs, previous.toMs, async () => {});
  mark(PREVIOUS_KEPT_MARK);
  return Math.round(performance.now() - t0);
}

/** The summary with its chart (the model, the message, the chart, the CSVs): `summary_ms`. */
async function summaryAlone(): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const model = await buildSummary(deps, summaryPeriod(job.slotMs, config.team.timezone));
  mark("model");
  const message = words.summary(model, {
    teamName: config.team.name,
    lateSinceMs: null,
    filesAttached: true,
  });
  const chart = words.chart(model, { logger: silentLogger });
  const csv = words.csv(model, "gpu-summary");
  const summaryMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  mark("summary");
  figures({
    summary_ms: Math.round(summaryMs),
    gpus: model.fleet.gpus,
    containers:
      model.containers.status === "ok"
        ? `ok, ${model.containers.advice.length} advised`
        : model.containers.status,
    engine_ms: engine.ms,
    engine_series: engine.series,
    png_bytes: chart.png.length,
    csv_bytes: csv.reduce((sum, file) => sum + file.content.length, 0),
    summary_peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    summary_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    sha256: {
      message: sha256(JSON.stringify(message)),
      chart: sha256(chart.png),
      csv: sha256(csv.map((file) => file.content).join("\n")),
    },
    trend: job.trend ?? "kept",
    previous_kept_ms: keptMs,
  });
}
