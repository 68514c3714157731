import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { parseConfig } from "../src/config/load-config.ts";
import { DAY_MS, ManualClock, MINUTE_MS } from "../src/shared/clock.ts";
import { startConsoleBot } from "./helpers/console-bot.ts";
import { type HistorySeries, startPrometheus } from "./helpers/prometheus.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-main-history-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The start, on a 5-minute grid, far enough back that every backfilled point is in the past. */
const NOW = Math.floor((Date.now() - 5 * MINUTE_MS) / (5 * MINUTE_MS)) * (5 * MINUTE_MS);
const IDLE_FROM = NOW - 3 * DAY_MS - 10 * MINUTE_MS;

function history(): HistorySeries[] {
  const at: number[] = [];
  for (let t = NOW - 4 * DAY_MS; t <= NOW - 2 * MINUTE_MS; t += MINUTE_MS) at.push(t);
  const labels = (host: string) => ({
    Hostname: host,
    gpu: "0",
    UUID: `GPU-${host}`,
    modelName: "NVIDIA L4",
  });
  return [
    {
      name: "DCGM_FI_DEV_GPU_UTIL",
      labels: labels("gpu-idle"),
      points: at.map((t) => [t, t >= IDLE_FROM ? 0 : 90]),
    },
    { name: "DCGM_FI_DEV_GPU_UTIL", labels: labels("gpu-busy"), points: at.map((t) => [t, 75]) },
    ...["gpu-idle", "gpu-busy"].map((host) => ({
      name: "DCGM_FI_DEV_FB_USED",
      labels: labels(host),
      points: at.map((t): [number, number] => [t, 300]),
    })),
  ];
}

describe("startBot against a Prometheus with days of history", () => {
  it("the first poll after a fresh install alerts on a host idle for 3 days, with the money so far", async () => {
    const prom = await startPrometheus({ backfill: history() });
    const config = parseConfig({
      http: { port: 0 },
      team: { currency: "USD" },
      store: { path: join(dir, "fresh.db") },
      poll: { interval_seconds: 3600 },
      sources: [{ kind: "prometheus", url: prom.url, containers: false }],
      hosts: { "gpu-idle": { cost_per_hour: 12.5 }, "gpu-busy": { cost_per_hour: 12.5 } },
    });
    const out = new PassThrough();
    let printed = "";
    out.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    try {
      const bot = await startConsoleBot(config, { clock: new ManualClock(NOW), stdout: out });
      try {
        await bot.pollNow();
      } finally {
        await bot.stop();
      }
    } finally {
      await prom.stop();
    }
    assert.match(printed, /^\[#gpu\] 💤 gpu-idle is idle since .+ \(3 d, \$901 so far\)$/m);
    assert.doesNotMatch(printed, /gpu-busy is idle/);
  });
});
