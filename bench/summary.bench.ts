import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderSummaryMessage } from "../src/bot/views/ledger/summary-message.ts";
import { translator } from "../src/messages/translator.ts";
import { renderSummaryChart } from "../src/reports/summary-chart.ts";
import { summaryCsvFiles } from "../src/reports/summary-csv.ts";
import type { SummaryModel } from "../src/reports/summary-model.ts";
import { DAY_MS, HOUR_MS } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { createClaimStore } from "../src/store/claim-store.ts";
import { createMetaStore } from "../src/store/meta-store.ts";
import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { createReclaimStore } from "../src/store/reclaim-store.ts";
import { ROLLED_UP_TO_KEY } from "../src/store/rollup.ts";
import { createSummaryStore } from "../src/store/summary-store.ts";
import { buildSummary, type SummaryDeps, summaryPeriod } from "../src/usecases/ledger/build-summary.ts";
import { median, report, round } from "./report.ts";
import {
  fillSummaryStore,
  rollUpSummaryStore,
  SUMMARY_GPUS,
  SUMMARY_ZONE,
  summaryFleetConfig,
} from "./summary-fleet.ts";

const EN = translator({ language: "en", timeZone: SUMMARY_ZONE, currency: "EUR" });

// The biweekly summary for 1,000 GPUs (125 hosts × 8; `HOSTS=N`: N hosts) over 14 days, from hourly
// rollups and their hour packs in a real SQLite file (28 days written through writeCycle + rollup, so
// the previous period is there for the trend; `SUMMARY_DB=FILE` keeps the file for the next run),
// with claims, stops and snoozes, owned and cloud prices with a valley tariff: the model, the
// message, the chart (PNG) and the CSVs. `chart_zh_ms`, after the runs and outside the total:
// the same chart in Chinese (it loads the CJK font), median of 3. Median of the runs; `cpu_ms` (this process's CPU time)
// is less at the mercy of a busy shared machine than the wall time.
/** `HOSTS=1000` (8,000 GPUs): the summary at the `scale` benchmark's baseline size. */
const HOSTS = Number(process.env.HOSTS ?? 125);
const RUNS = Number(process.env.RUNS ?? 7);
/** Monday 16 March 2026, 10:00 in Berlin. */
const SLOT_MS = Date.UTC(2026, 2, 16, 9, 0);
/** 1 s for 1,000 GPUs; the 10 s for 80,000 (`HOSTS=10000`). */
const TARGET_MS = HOSTS * SUMMARY_GPUS >= 80_000 ? 10_000 : 1_000;

const names = Array.from({ length: HOSTS }, (_, h) => `gpu-${String(h + 1).padStart(3, "0")}`);
const config = summaryFleetConfig(names);

/** `SUMMARY_DB=FILE`: build the store there once and keep it; a later run with the same `HOSTS` reads it. */
const KEPT = process.env.SUMMARY_DB;
const dir = mkdtempSync(join(tmpdir(), "gw-bench-summary-"));
try {
  const reuse = KEPT !== undefined && existsSync(KEPT);
  const db = openDatabase(KEPT ?? join(dir, "gpu-warden.db"));
  const metrics = createMetricsStore(db, { sampleSpanMaxMs: HOUR_MS });
  const period = summaryPeriod(SLOT_MS, SUMMARY_ZONE);
  const setupStart = performance.now();
  const claims = createClaimStore(db);
  if (reuse) rollUpSummaryStore(metrics, config, SLOT_MS);
  else fillSummaryStore({ db, metrics, claims, config }, names, SLOT_MS);
  const setupS = (performance.now() - setupStart) / 1000;
  const meta = createMetaStore(db);
  const deps: SummaryDeps = {
    config,
    metrics,
    rolledUpToMs: () => Number(meta.get(ROLLED_UP_TO_KEY)),
    summaries: createSummaryStore(db),
    claims,
    reclaims: createReclaimStore(db),
    prometheus: [],
    logger: silentLogger,
  };

  const times: number[] = [];
  const cpu: number[] = [];
  const parts = {
    model: [] as number[],
    message: [] as number[],
    chart: [] as number[],
    csv: [] as number[],
    chartZh: [] as number[],
  };
  let pngBytes = 0;
  let blocks = 0;
  let gpus = 0;
  let lastModel: SummaryModel | null = null;
  for (let run = 0; run < RUNS; run++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const model = await buildSummary(deps, period);
    const t1 = performance.now();
    const message = renderSummaryMessage(EN, model, {
      teamName: "bench",
      lateSinceMs: null,
      filesAttached: true,
    });
    const t2 = performance.now();
    const chart = renderSummaryChart(model, { language: "en" });
    const t3 = performance.now();
    const csv = summaryCsvFiles(EN, model, "gpu-summary");
    const t4 = performance.now();
    times.push(t4 - t0);
    const used = process.cpuUsage(cpu0);
    cpu.push((used.user + used.system) / 1000);
    parts.model.push(t1 - t0);
    parts.message.push(t2 - t1);
    parts.chart.push(t3 - t2);
    parts.csv.push(t4 - t3);
    lastModel = model;
    pngBytes = chart.png.length;
    blocks = message.blocks?.length ?? 0;
    gpus = model.fleet.gpus;
    if (csv.length === 0) throw new Error("no CSV");
  }
  for (let run = 0; run < 3 && lastModel !== null; run++) {
    const t0 = performance.now();
    renderSummaryChart(lastModel, { language: "zh-CN" });
    parts.chartZh.push(performance.now() - t0);
  }
  db.close();
  report({
    name: "summary",
    value: round(median(times), 1),
    unit: "ms",
    baseline: null,
    ratio: null,
    target_ms: TARGET_MS,
    gpus,
    days: 14,
    runs: RUNS,
    cpu_ms: round(median(cpu), 1),
    model_ms: round(median(parts.model), 1),
    message_ms: round(median(parts.message), 1),
    chart_ms: round(median(parts.chart), 1),
    csv_ms: round(median(parts.csv), 1),
    chart_zh_ms: round(median(parts.chartZh), 1),
    png_bytes: pngBytes,
    blocks,
    setup_s: round(setupS, 1),
    period_days: round((period.toMs - period.fromMs) / DAY_MS, 2),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
