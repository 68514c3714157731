import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  formatLabels,
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
 * asks right after a scrape would see nothing.
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
    if (render) await running.waitFor('up{job="live"} == 1', 1, Math.max(30_000, interval * 3_000 + 10_000));
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Posts history as exposition text with millisecond timestamps, about 4 MB a request, then flushes. */
async function importHistory(
  url: string,
  series: Iterable<HistorySeries> | AsyncIterable<HistorySeries>,
): Promise<number> {
  let samples = 0;
  let body = "";
  const send = async () => {
    if (body.length === 0) return;
    const response = await fetch(`${url}/api/v1/import/prometheus`, { method: "POST", body });
    if (!response.ok) throw new Error(`import: HTTP ${response.status} ${await response.text()}`);
    body = "";
  };
  for await (const one of series) {
    const labels = formatLabels(one.labels);
    for (const [atMs, value] of [...one.points].sort((a, b) => a[0] - b[0])) {
      body += `${one.name}${labels} ${formatValue(value)} ${Math.round(atMs)}\n`;
      samples++;
    }
    if (body.length > 4 << 20) await send();
  }
  await send();
  await fetch(`${url}/internal/force_flush`);
  return samples;
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
