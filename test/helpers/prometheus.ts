import { type ChildProcess, execFile } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  closeServer,
  orphanWatchdog,
  spawnLogged,
  startExporter,
  stopChild,
  tail,
} from "./server-process.ts";

/**
 * A real Prometheus (Debian's `/usr/bin/prometheus` 2.42, `bash scripts/install-test-deps.sh`) on
 * 127.0.0.1 for tests and benchmarks: its own config and TSDB in a temp dir, optional history backfilled
 * with `promtool tsdb create-blocks-from openmetrics`, optional live exporter scraped every second.
 */

/** One series of history: points in any order (they are sorted), epoch ms. */
export interface HistorySeries {
  name: string;
  labels: Readonly<Record<string, string>>;
  points: readonly (readonly [atMs: number, value: number])[];
}

/** One sample of live exposition text. */
export interface LiveSample {
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number | null;
  /** Explicit sample time (epoch ms): Prometheus stores it instead of the scrape time. */
  timestampMs?: number | null;
}

export interface StartPrometheusOptions {
  /**
   * History to load before the server starts. Series of one metric name must come together (OpenMetrics
   * families are contiguous). Every point must be at least 60 s in the past, or live scrapes are
   * rejected as out of bounds.
   */
  backfill?: Iterable<HistorySeries> | AsyncIterable<HistorySeries>;
  /**
   * A folder of TSDB blocks made before (by {@link buildBlocks}), copied into the data folder before the
   * server starts, beside `backfill`'s: history kept between benchmark runs. VictoriaMetrics ignores it.
   */
  blocks?: string;
  /**
   * Exposition text served to the live scrape job (`honor_labels: true`); called at every scrape. A
   * series without its own `job`/`instance` labels gets `job="live"` and the exporter's address, so
   * give live series that continue backfilled history the same `job` and `instance` as their history.
   */
  exporter?: () => string;
  scrapeIntervalSeconds?: number;
  /** Kill the server after this long no matter what (a safety net against leaked processes). */
  timeoutMs?: number;
}

export interface RunningPrometheus {
  /** Base URL of the query API, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** The server's process id (for CPU accounting in benchmarks). */
  readonly pid: number;
  readonly dir: string;
  /** Backfilled samples (0 without backfill). */
  readonly backfilledSamples: number;
  /** Replaces what the live exporter serves from the next scrape on. */
  setExporter(render: () => string): void;
  /** Polls an instant query until it returns at least `minSeries` series. */
  waitFor(promql: string, minSeries?: number, timeoutMs?: number): Promise<void>;
  /** Stops the server (by its pid) but keeps the exporter and the temp dir: "Prometheus is down". */
  stopServer(): Promise<void>;
  /** Stops everything and removes the temp dir; safe to call twice. */
  stop(): Promise<void>;
}

const execFileAsync = promisify(execFile);
const LIVE_JOB = "live";

export async function startPrometheus(options: StartPrometheusOptions = {}): Promise<RunningPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), "gw-prom-"));
  const dataDir = join(dir, "data");
  let exporterServer: Server | null = null;
  let child: ChildProcess | null = null;
  let safety: NodeJS.Timeout | null = null;
  let watchdog: ChildProcess | null = null;
  let render = options.exporter ?? null;

  const stopServer = async () => {
    if (safety) clearTimeout(safety);
    const proc = child;
    child = null;
    await stopChild(proc);
  };
  const stop = async () => {
    await stopServer();
    if (exporterServer) {
      const server = exporterServer;
      exporterServer = null;
      await closeServer(server);
    }
    await rm(dir, { recursive: true, force: true });
    watchdog?.kill();
    watchdog = null;
  };

  try {
    const backfilledSamples = options.backfill ? await buildBlocks(options.backfill, dataDir) : 0;
    if (options.blocks) await cp(options.blocks, dataDir, { recursive: true });

    const scrapeTargets: string[] = [];
    if (render) {
      const exporter = await startExporter(() => render);
      exporterServer = exporter.server;
      scrapeTargets.push(exporter.target);
    }

    const interval = options.scrapeIntervalSeconds ?? 1;
    const configFile = join(dir, "prometheus.yml");
    await writeFile(
      configFile,
      [
        "global:",
        `  scrape_interval: ${interval}s`,
        `  scrape_timeout: ${interval}s`,
        "scrape_configs:",
        ...(scrapeTargets.length > 0
          ? [
              `  - job_name: ${LIVE_JOB}`,
              "    honor_labels: true",
              "    static_configs:",
              `      - targets: [${scrapeTargets.map((target) => `"${target}"`).join(", ")}]`,
            ]
          : []),
        "",
      ].join("\n"),
    );

    const port = await freePort();
    const logFile = join(dir, "prometheus.log");
    const started = spawnLogged(
      "prometheus",
      [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${dataDir}`,
        "--storage.tsdb.retention.time=3650d",
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn",
      ],
      logFile,
    );
    child = started.child;
    const spawned = started.child;
    const spawnError = started.failed;
    const timeoutMs = options.timeoutMs ?? 15 * 60_000;
    safety = setTimeout(() => child?.kill("SIGKILL"), timeoutMs);
    safety.unref();
    watchdog = orphanWatchdog(spawned.pid, dir);

    const url = `http://127.0.0.1:${port}`;
    await Promise.race([waitReady(url, 60_000, logFile), spawnError]);

    const running: RunningPrometheus = {
      url,
      pid: spawned.pid ?? -1,
      dir,
      backfilledSamples,
      setExporter(next) {
        render = next;
      },
      waitFor: (promql, minSeries = 1, waitMs = 30_000) => waitForSeries(url, promql, minSeries, waitMs),
      stopServer,
      stop,
    };
    if (render)
      await running.waitFor(`up{job="${LIVE_JOB}"} == 1`, 1, Math.max(30_000, interval * 3_000 + 10_000));
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Writes history as TSDB blocks into `outDir` (`promtool tsdb create-blocks-from openmetrics`, through
 * an OpenMetrics file beside it that is removed after); returns the samples written. Every point must
 * be at least 60 s in the past.
 */
export async function buildBlocks(
  series: Iterable<HistorySeries> | AsyncIterable<HistorySeries>,
  outDir: string,
): Promise<number> {
  await mkdir(outDir, { recursive: true });
  const file = `${outDir}.om`;
  try {
    const samples = await writeOpenMetrics(file, series, Date.now() - 60_000);
    await execFileAsync(
      "promtool",
      ["tsdb", "create-blocks-from", "openmetrics", "--max-block-duration=1458h", file, outDir],
      { timeout: 1_800_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return samples;
  } finally {
    await rm(file, { force: true });
  }
}

/** `ms` rounded down to a multiple of `stepMs`. */
export function gridTime(ms: number, stepMs: number): number {
  return Math.floor(ms / stepMs) * stepMs;
}

/**
 * A counter growing by `ratePerSecond` (value `base + ratePerSecond × t/1000` at epoch ms `t`), one point
 * per `stepMs` on the grid over `[fromMs, toMs]`. For an exact `rate()` over live data too, serve the
 * same formula from the exporter with the grid time as explicit timestamp (`gridTime(Date.now(), stepMs)`)
 * and the same `job`/`instance` labels as the history: the window then holds evenly spaced points and
 * rate() extrapolates to the exact slope.
 */
export function linearCounter(options: {
  name: string;
  labels: Readonly<Record<string, string>>;
  ratePerSecond: number;
  base: number;
  fromMs: number;
  toMs: number;
  stepMs: number;
}): HistorySeries {
  const points: [number, number][] = [];
  for (let at = gridTime(options.fromMs, options.stepMs); at <= options.toMs; at += options.stepMs) {
    if (at >= options.fromMs) points.push([at, options.base + (options.ratePerSecond * at) / 1000]);
  }
  return { name: options.name, labels: options.labels, points };
}

/** Exposition text (format 0.0.4) for the live exporter; `null` values are left out. */
export function formatExposition(samples: Iterable<LiveSample>): string {
  let out = "";
  for (const sample of samples) {
    if (sample.value === null) continue;
    const at = sample.timestampMs == null ? "" : ` ${Math.round(sample.timestampMs)}`;
    out += `${sample.name}${formatLabels(sample.labels)} ${formatValue(sample.value)}${at}\n`;
  }
  return out;
}

/**
 * Writes history as OpenMetrics for promtool: one `# TYPE … gauge` per family, points sorted, timestamps
 * in seconds, `# EOF` last. Throws when a family is split or a point is newer than `latestMs`.
 */
async function writeOpenMetrics(
  file: string,
  series: Iterable<HistorySeries> | AsyncIterable<HistorySeries>,
  latestMs: number,
): Promise<number> {
  const stream = createWriteStream(file);
  const finished = once(stream, "finish");
  const written = new Set<string>();
  let current: string | null = null;
  let samples = 0;
  let buffer = "";
  const flush = async () => {
    if (buffer.length === 0) return;
    if (!stream.write(buffer)) await once(stream, "drain");
    buffer = "";
  };
  try {
    for await (const one of series) {
      if (one.name !== current) {
        if (written.has(one.name)) throw new Error(`backfill: series of ${one.name} must come together`);
        written.add(one.name);
        current = one.name;
        buffer += `# TYPE ${one.name} gauge\n`;
      }
      const labels = formatLabels(one.labels);
      const points = [...one.points].sort((a, b) => a[0] - b[0]);
      for (const [atMs, value] of points) {
        if (atMs > latestMs) {
          throw new Error(
            `backfill: ${one.name}${labels} has a point at ${new Date(atMs).toISOString()}, less than 60 s ago`,
          );
        }
        buffer += `${one.name}${labels} ${formatValue(value)} ${atMs / 1000}\n`;
        samples++;
      }
      if (buffer.length > 1 << 20) await flush();
    }
    buffer += "# EOF\n";
    await flush();
  } finally {
    stream.end();
    await finished;
  }
  return samples;
}

export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const parts = Object.entries(labels).map(
    ([name, value]) => `${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`,
  );
  return parts.length > 0 ? `{${parts.join(",")}}` : "";
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitReady(url: string, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2_000) });
      last = `HTTP ${response.status} ${(await response.text()).trim()}`;
      if (response.ok) return;
    } catch (error) {
      last = error instanceof Error ? `${error.message} (${String(error.cause ?? "")})` : String(error);
    }
    await sleep(100);
  }
  throw new Error(`prometheus not ready after ${timeoutMs} ms (last: ${last}): ${tail(logFile)}`);
}

export async function waitForSeries(
  url: string,
  promql: string,
  minSeries: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`, {
      signal: AbortSignal.timeout(5_000),
    });
    last = await response.text();
    const body = JSON.parse(last) as { data?: { result?: unknown[] } };
    if ((body.data?.result?.length ?? 0) >= minSeries) return;
    await sleep(200);
  }
  throw new Error(
    `no ${minSeries} series for ${promql} after ${timeoutMs} ms; last answer: ${last.slice(0, 300)}`,
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
