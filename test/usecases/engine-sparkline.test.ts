import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sparkline } from "../../src/bot/views/alerts/sparkline.ts";
import { bucketUtil } from "../../src/checks/bucket-util.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createSources } from "../../src/sources/create-sources.ts";
import { SPARKLINE_MARKS, SPARKLINE_MINUTES } from "../../src/usecases/alerts/idle-alerts.ts";
import { ALICE, BotHarness, standardConfig, T0 } from "../helpers/bot-harness.ts";
import { type HistorySeries, type RunningPrometheus, startPrometheus } from "../helpers/prometheus.ts";
import { shownText } from "./idle-alerts-rig.ts";

/** GPU 0 of node-5: busy at 90 % until an hour before T0, idle after; GPU 1 at 40 % until 30 min before. */
function utilAt(gpu: number, atMs: number): number {
  if (gpu === 0) return atMs < T0 - HOUR_MS ? 90 : 0;
  return atMs < T0 - 30 * MINUTE_MS ? 40 : 0;
}

const FROM_MS = T0 - 4 * HOUR_MS;
const TO_MS = T0 + HOUR_MS;

function history(): HistorySeries[] {
  const at: number[] = [];
  for (let t = FROM_MS; t <= TO_MS; t += MINUTE_MS) at.push(t);
  const labels = (gpu: number) => ({
    Hostname: "node-5",
    gpu: String(gpu),
    UUID: `GPU-${gpu}`,
    modelName: "NVIDIA H100",
  });
  const field = (name: string, value: (gpu: number, t: number) => number): HistorySeries[] =>
    [0, 1].map((gpu) => ({
      name,
      labels: labels(gpu),
      points: at.map((t): [number, number] => [t, value(gpu, t)]),
    }));
  return [
    ...field("DCGM_FI_DEV_GPU_UTIL", utilAt),
    ...field("DCGM_FI_DEV_FB_USED", () => 0),
    ...field("DCGM_FI_DEV_FB_FREE", () => 81000),
    ...field("DCGM_FI_DEV_POWER_USAGE", () => 60),
  ];
}

describe("the time-series engine keeps the raw samples", { timeout: 120_000 }, () => {
  let prom: RunningPrometheus;
  let h: BotHarness | null = null;

  before(async () => {
    prom = await startPrometheus({ backfill: history() });
  });

  after(async () => {
    await h?.close();
    await prom?.stop();
  });

  test("an alert's sparkline is the engine's last 3 h on a fresh store; no raw sample rows are kept for engine hosts", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "node-5": { owners: [ALICE], cost_per_hour: 4 } },
        {
          policy: { idle_for_minutes: 2 },
          sources: [
            { kind: "prometheus", url: prom.url, containers: false, history_days: 0 },
            { kind: "simulated", hosts: 1, gpus_per_host: 1 },
          ],
        },
      ),
      sources: (config, clock) =>
        createSources(config, { clock, logger: silentLogger, hostName: "bot", pathEnv: "" }),
    });
    for (let minute = 0; minute <= 2; minute++) {
      await h.pollSources();
      if (minute < 2) h.clock.advance(MINUTE_MS);
    }
    await h.settle();
    const nowMs = T0 + 2 * MINUTE_MS;
    assert.equal(h.state.alerts.openFor("node-5", "idle")?.openedAtMs, nowMs);

    const fromMs = nowMs - SPARKLINE_MINUTES * MINUTE_MS;
    const engineLine = (gpu: number) => {
      const readings: { atMs: number; utilPct: number }[] = [];
      for (let t = fromMs + MINUTE_MS; t <= nowMs; t += MINUTE_MS)
        readings.push({ atMs: t, utilPct: utilAt(gpu, t) });
      return sparkline(bucketUtil(readings, fromMs + 1, nowMs + 1, SPARKLINE_MARKS, 2 * MINUTE_MS));
    };
    const shown = shownText(h.alertMessage("node-5"));
    for (const gpu of [0, 1]) {
      const line = shown.split("\n").find((text) => text.startsWith(`GPU ${gpu} `)) ?? "";
      assert.equal(line.split(" ")[2], engineLine(gpu), `GPU ${gpu}: ${line}`);
    }
    assert.match(engineLine(0), /^█{20,}[▂-▇]▁{10,}$/, "the engine's 3 h: busy, then idle");

    const rows = (table: string, source: string) =>
      h!.db
        .prepare(
          `SELECT count(*) FROM ${table} s JOIN ${table === "gpu_sample" ? "gpu e ON e.id" : "host e ON e.id"} = (s.id & 16777215)
           ${table === "gpu_sample" ? "JOIN host ON host.id = e.host_id WHERE host.source" : "WHERE e.source"} = ?`,
        )
        .pluck()
        .get(source) as number;
    assert.ok(rows("gpu_sample", "prometheus") > 0, "the last hours' samples, for a restart's idle states");

    h.clock.advance(4 * HOUR_MS);
    const rollup = h.jobs.find((job) => job.name === "rollup");
    assert.ok(rollup !== undefined && rollup.catchUp === undefined);
    await rollup.run();
    assert.equal(
      rows("gpu_sample", "prometheus"),
      0,
      "no raw GPU samples of engine hosts past the restart window",
    );
    assert.equal(
      rows("host_sample", "prometheus"),
      0,
      "no raw host samples of engine hosts past the restart window",
    );
    assert.equal(rows("gpu_sample", "simulated"), 3, "a simulated host keeps its raw samples (8 days)");
    const rollups = h.db.prepare("SELECT count(*) FROM gpu_hour").pluck().get() as number;
    assert.equal(rollups, 3, "the hour rolled up: node-5's two GPUs and the simulated one");
    await h.closeChecked();
    h = null;
  });
});
