import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  formatValue,
  freePort,
  type HistorySeries,
  type RunningPrometheus,
  type StartPrometheusOptions,
  sleep,
  waitForSeries,
} from "./prometheus.ts";
import {
  closeServer,
  orphanWatchdog,
  spawnLogged,
  startExporter,
  stopChild,
  tail,
} from "./server-process.ts";

/**
 * A real single-node VictoriaMetrics (Debian's `/usr/bin/victoria-metrics` 1.79, `bash
 * scripts/install-test-deps.sh`) on 127.0.0.1, with the same options and answer as `startPrometheus`:
 * history imported with millisecond timestamps through `/api/v1/import/prometheus` once it is up, the
 * live exporter scraped by its built-in scraper (`-promscrape.config`, `honor_labels: true`).
 * NOTE: `-search.latencyOffset=0s`: by default the newest 30 s are hidden from queries, and a test that
 * asks right after a scrape would see nothing. `-promscrape.maxScrapeSize`: by default a scrape answer
 * over 16 MiB is refused, and a benchmark's exporter stands for thousands of hosts (2,500 hosts of
 * dcgm-exporter series are 23 MB), where a real fleet has one small exporter per host.
 * `-search.maxQueueDuration=60s`: a query waits up to 10 s by default for one of
 * `-search.maxConcurrentRequests` (2 × cores: 4 here) and is then answered 503; a poll sends about 10
 * queries a source at once, and on this machine at 80,000 GPUs some waited longer.
 */
export async function startVictoriaMetrics(options: StartPrometheusOptions = {}): Promise<RunningPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), "gw-vm-"));
  let exporterServer: Server | null = null;
  let child: ChildProcess | null = null;
  let watchdog: ChildProcess | null = null;
  let render = options.exporter ?? null;

  const stopServer = async () => {
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
    const targets: string[] = [];
    if (render) {
      const exporter = await startExporter(() => render);
      exporterServer = exporter.server;
      targets.push(exporter.target);
    }
    const interval = options.scrapeIntervalSeconds ?? 1;
    const scrapeFile = join(dir, "scrape.yml");
    await writeFile(
      scrapeFile,
      [
        "scrape_configs:",
        ...(targets.length > 0
          ? [
              "  - job_name: live",
              `    scrape_interval: ${interval}s`,
              `    scrape_timeout: ${interval}s`,
              "    honor_labels: true",
              "    static_configs:",
              `      - targets: [${targets.map((target) => `"${target}"`).join(", ")}]`,
            ]
          : ["  []"]),
        "",
      ].join("\n"),
    );
    const port = await freePort();
    const logFile = join(dir, "victoria-metrics.log");
    const started = spawnLogged(
      "victoria-metrics",
      [
        `-storageDataPath=${join(dir, "data")}`,
        "-retentionPeriod=100y",
        `-httpListenAddr=127.0.0.1:${port}`,
        "-search.latencyOffset=0s",
        "-search.disableCache",
        "-promscrape.maxScrapeSize=1GiB",
        "-search.maxQueueDuration=60s",
        ...(targets.length > 0 ? [`-promscrape.config=${scrapeFile}`] : []),
        "-loggerLevel=ERROR",
      ],
      logFile,
    );
    child = started.child;
    const spawned = started.child;
    const spawnError = started.failed;
    const safety = setTimeout(() => child?.kill("SIGKILL"), options.timeoutMs ?? 15 * 60_000);
    safety.unref();
    watchdog = orphanWatchdog(spawned.pid, dir);
    const url = `http://127.0.0.1:${port}`;
    await Promise.race([waitHealthy(url, 60_000, logFile), spawnError]);
    const backfilledSamples = options.backfill ? await importHistory(url, options.backfill) : 0;
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
    if (render) await waitFirstScrape(running, Math.max(30_000, interval * 3_000 + 10_000));
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Posts history as JSON lines (`/api/v1/import`: one line a series, its values and millisecond
 * timestamps), about 8 MB a request, then flushes. A series is one line however many points it has,
 * so 14 days of a large fleet import without a line of text per sample.
 */
async function importHistory(
  url: string,
  series: Iterable<HistorySeries> | AsyncIterable<HistorySeries>,
): Promise<number> {
  let samples = 0;
  let body = "";
  const send = async () => {
    if (body.length === 0) return;
    const response = await fetch(`${url}/api/v1/import`, { method: "POST", body });
    if (!response.ok) throw new Error(`import: HTTP ${response.status} ${await response.text()}`);
    body = "";
  };
  for await (const one of series) {
    const points = [...one.points].sort((a, b) => a[0] - b[0]);
    body += `${JSON.stringify({
      metric: { __name__: one.name, ...one.labels },
      values: points.map(([, value]) => jsonValue(value)),
      timestamps: points.map(([atMs]) => Math.round(atMs)),
    })}\n`;
    samples += points.length;
    if (body.length > 8 << 20) await send();
  }
  await send();
  await fetch(`${url}/internal/force_flush`);
  return samples;
}

/** A value for VictoriaMetrics' JSON import, which takes `NaN` and `±Inf` as strings. */
function jsonValue(value: number): number | string {
  return Number.isFinite(value) ? value : formatValue(value);
}

/** Waits for the live job's first scrape; on timeout, says the target's last scrape error. */
async function waitFirstScrape(running: RunningPrometheus, timeoutMs: number): Promise<void> {
  try {
    await running.waitFor('up{job="live"} == 1', 1, timeoutMs);
  } catch (error) {
    const targets = await fetch(`${running.url}/api/v1/targets`)
      .then((response) => response.text())
      .catch((cause: unknown) => String(cause));
    const lastError = /"lastError":"([^"]*)"/.exec(targets)?.[1] ?? targets.slice(0, 300);
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; last scrape error: ${lastError}`,
    );
  }
}

async function waitHealthy(url: string, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      last = `HTTP ${response.status}`;
      if (response.ok) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(100);
  }
  throw new Error(`victoria-metrics not healthy after ${timeoutMs} ms (last: ${last}): ${tail(logFile)}`);
}
