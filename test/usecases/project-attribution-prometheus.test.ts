import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { workloadHoursOf } from "../../src/checks/workload-project.ts";
import { sourceSchema } from "../../src/config/schema.ts";
import { HOUR_MS, ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { dayjs } from "../../src/shared/time.ts";
import { createPrometheusSource, type PrometheusSourceConfig } from "../../src/sources/prometheus-source.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { FIXTURES_DIR } from "../helpers/fixtures.ts";
import { parsePromText } from "../helpers/parse-prom-text.ts";
import { type HistorySeries, type RunningPrometheus, startPrometheus } from "../helpers/prometheus.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";

const ZONE = "Europe/Berlin";
const STEP = 15 * MINUTE_MS;
/** The latest 1st of a month (Berlin) at least three days ago: history from 6 h before it to 4 h after. */
const BOUNDARY = (() => {
  const now = dayjs().tz(ZONE);
  const first = now.date() > 3 ? now.startOf("month") : now.subtract(1, "month").startOf("month");
  return first.valueOf();
})();
const FROM = BOUNDARY - 6 * HOUR_MS;
const TO = BOUNDARY + 4 * HOUR_MS;
const MONTH_BEFORE = dayjs(BOUNDARY - 1)
  .tz(ZONE)
  .format("YYYY-MM");
const MONTH_AFTER = dayjs(BOUNDARY).tz(ZONE).format("YYYY-MM");

/** The fixture's eight H100s of gpu-node-1 (GPU 0 in pod labels of namespace `dynamo-workload`). */
const H100 = parsePromText(
  readFileSync(`${FIXTURES_DIR}/dcgm-exporter/k8s-8xH100-podlabels-sampled__aicr.prom`, "utf8"),
).samples.filter((sample) => sample.name === "DCGM_FI_DEV_GPU_TEMP");
/** GPU 1 runs a pod labelled `project="speech-team"`; GPU 2 one in `research`, which no project names. */
const WORKLOADS: Record<number, Record<string, string>> = {
  1: { container: "asr", namespace: "research", pod: "asr-train-0", pod_uid: "", project: "speech-team" },
  2: { container: "main", namespace: "research", pod: "notebook-0", pod_uid: "" },
};
/** Busy spans per GPU, in hours from the month boundary, and the project a reader of the labels expects. */
const BUSY: Record<number, { from: number; to: number; util: number; project: string | null }> = {
  0: { from: -4, to: 2, util: 90, project: "inference" },
  1: { from: -3, to: 1, util: 80, project: "speech" },
  2: { from: -2, to: 0.5, util: 70, project: null },
};

function utilAt(gpu: number, atMs: number): number {
  const busy = BUSY[gpu];
  if (busy === undefined) return 0;
  const hours = (atMs - BOUNDARY) / HOUR_MS;
  return hours >= busy.from && hours < busy.to ? busy.util : 0;
}

/** One minute apart, every dcgm-exporter field the source reads, for the eight GPUs. */
function history(): HistorySeries[] {
  const fields: Array<[string, (gpu: number, atMs: number) => number]> = [
    ["DCGM_FI_DEV_GPU_UTIL", utilAt],
    ["DCGM_FI_DEV_FB_USED", (gpu, atMs) => (utilAt(gpu, atMs) > 0 ? 40_000 : 0)],
    ["DCGM_FI_DEV_FB_FREE", (gpu, atMs) => 81_559 - (utilAt(gpu, atMs) > 0 ? 40_000 : 0)],
    ["DCGM_FI_DEV_POWER_USAGE", (gpu, atMs) => (utilAt(gpu, atMs) > 0 ? 500 : 70)],
    ["DCGM_FI_DEV_GPU_TEMP", () => 40],
  ];
  return fields.flatMap(([name, value]) =>
    H100.map((sample) => {
      const gpu = Number(sample.labels.gpu);
      const points: Array<[number, number]> = [];
      for (let atMs = FROM; atMs <= TO; atMs += MINUTE_MS) points.push([atMs, value(gpu, atMs)]);
      return { name, labels: { ...sample.labels, ...WORKLOADS[gpu] }, points };
    }),
  );
}

/** Independently: busy GPU-hours per project (`null`: unattributed) and month, from the polls' times. */
function expectedBusy(): Map<string, number> {
  const hours = new Map<string, number>();
  for (let atMs = FROM; atMs < TO; atMs += STEP) {
    const month = atMs < BOUNDARY ? MONTH_BEFORE : MONTH_AFTER;
    for (const [gpu, busy] of Object.entries(BUSY)) {
      if (utilAt(Number(gpu), atMs) < 10) continue;
      const key = `${month} ${busy.project ?? "unattributed"}`;
      hours.set(key, (hours.get(key) ?? 0) + STEP / MINUTE_MS);
    }
  }
  return new Map([...hours].map(([key, minutes]) => [key, minutes / 60]));
}

describe("GPU time attributed to projects through Prometheus labels, across a month boundary", {
  timeout: 240_000,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-project-prom-"));
  const store = join(dir, "gpu-warden.db");
  const file = join(dir, "gpu-warden.yaml");
  let prom: RunningPrometheus;

  before(async () => {
    prom = await startPrometheus({ backfill: history() });
    writeFileSync(
      file,
      `store: { path: ${store} }\nteam: { timezone: ${ZONE} }\npoll: { interval_seconds: 900 }\n` +
        "hosts: { gpu-node-1: { cost_per_hour: 8 } }\n" +
        "projects:\n  inference: { namespaces: [dynamo-workload] }\n  speech: { prometheus_label: speech-team }\n",
    );
    const parsed = sourceSchema.parse({ kind: "prometheus", url: prom.url });
    const clock = new ManualClock(FROM);
    const source = createPrometheusSource(parsed as PrometheusSourceConfig, {
      clock,
      logger: createLogger("silent"),
    });
    const db = openDatabase(store);
    const metrics = createMetricsStore(db, { sampleSpanMaxMs: STEP });
    const state = createBotStateStore(db);
    // As each poll does (main/create-poll.ts): the cycle, then the hour's workloads.
    for (let atMs = FROM; atMs < TO; atMs += STEP) {
      clock.set(atMs);
      const observations = await source.poll(new AbortController().signal);
      metrics.writeCycle(observations, atMs);
      state.workloads.record(workloadHoursOf(observations));
    }
    db.close();
  });

  after(async () => {
    await prom?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the namespace's project and the label's project get their busy hours, each in its month", async () => {
    const expected = expectedBusy();
    assert.deepEqual(
      [...expected.entries()].sort(),
      [
        [`${MONTH_BEFORE} inference`, 4],
        [`${MONTH_BEFORE} speech`, 3],
        [`${MONTH_BEFORE} unattributed`, 2],
        [`${MONTH_AFTER} inference`, 2],
        [`${MONTH_AFTER} speech`, 1],
        [`${MONTH_AFTER} unattributed`, 0.5],
      ],
      "the scenario, as the test recomputes it",
    );
    const db = openDatabase(store);
    try {
      for (const month of [MONTH_BEFORE, MONTH_AFTER]) {
        const csv = await runCliHere(
          ["report", "--by", "project", "--month", month, "--csv", "--config", file],
          {
            cwd: dir,
          },
        );
        assert.equal(csv.code, 0, csv.stderr);
        const rows = csv.stdout
          .split("\r\n")
          .slice(1)
          .filter((line) => line !== "")
          .map((line) => line.split(","));
        assert.deepEqual(
          rows.map((row) => [row[0], Number(row[2])]),
          ["inference", "speech", "unattributed"].map((project) => [
            project,
            expected.get(`${month} ${project}`),
          ]),
          `${month}: busy GPU-hours per project`,
        );
        const ledger = db
          .prepare("SELECT sum(cost) AS total FROM ledger_day WHERE day LIKE ?")
          .get(`${month}-%`) as { total: number };
        const sum = rows.reduce((total, row) => total + Number(row[5]), 0);
        assert.ok(ledger.total > 0);
        assert.ok(
          Math.abs(sum - ledger.total) < 0.005 * rows.length,
          `${month}: ${sum} sums to the ledger's ${ledger.total}`,
        );
      }
    } finally {
      db.close();
    }
  });
});
