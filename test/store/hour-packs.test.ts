import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { configSchema } from "../../src/config/schema.ts";
import { hourRowsOf } from "../../src/reports/hour-rows.ts";
import { buildSummaryModelPaced, type SummaryInput } from "../../src/reports/summary-model.ts";
import { DAY_MS, HOUR_MS } from "../../src/shared/clock.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import { createSummaryStore, type HourRows } from "../../src/store/summary-store.ts";
import { summaryPricing } from "../../src/usecases/ledger/summary-pricing.ts";
import { buildSummaryModel } from "../helpers/summary-model-now.ts";
import {
  byGpu,
  count,
  openStore,
  sqlGpuTotals,
  tempDir,
  VALLEY_COSTS,
  variedFleet,
} from "./store-fixtures.ts";

const T0 = Date.UTC(2026, 2, 2, 6, 0, 0);
const MIN = 60_000;
const HOURS = 30;
const temp = tempDir("gw-store-packs-");
after(() => temp.remove());

/** 30 hours of polls every 10 minutes: gpu-a with 2 GPUs, gpu-b with 4, gpu-c failing now and then. */
function fill(store: MetricsStore): void {
  for (let step = 0; step < (HOURS * 60) / 10; step++) {
    const atMs = T0 + step * 10 * MIN;
    store.writeCycle(variedFleet(atMs, step), atMs);
  }
  while (!store.rollup(T0 + (HOURS + 1) * HOUR_MS, 10, 7).complete) {}
}

/** The rows one by one, each chunk's hour with them. */
const columns = (rows: HourRows) => ({
  length: rows.length,
  gpus: rows.gpus,
  rows: [...rows.hours].flatMap((chunk) =>
    Array.from(chunk.gpu, (gpu, k) => [
      chunk.hourMs,
      gpu,
      chunk.utilMeanPct[k],
      chunk.busyMinutes[k],
      chunk.idleMinutes[k],
      chunk.energyWh[k],
    ]),
  ),
});

/** What the summary read before the packs: `gpu_hour` row by row, and its `GROUP BY gpu_id` totals. */
function fromRollups(store: MetricsStore, fromMs: number, toMs: number) {
  return {
    rows: hourRowsOf(store.rollupsBetween(fromMs, toMs)),
    totals: sqlGpuTotals(store, fromMs, toMs),
  };
}

function assertSameAsRollups(file: string, fromMs: number, toMs: number): void {
  const { db, store, close } = openStore(file, { sampleSpanMaxMs: 20 * MIN });
  const summaries = createSummaryStore(db);
  const expected = fromRollups(store, fromMs, toMs);
  assert.ok(expected.rows.length > 100);
  assert.deepEqual(columns(summaries.hourRows(fromMs, toMs)), columns(expected.rows));
  assert.deepEqual(byGpu(summaries.gpuTotals(fromMs, toMs)), byGpu(expected.totals));
  close();
}

describe("hour packs (schema step 15)", () => {
  const file = temp.file("packs.db");
  const fromMs = T0 + 2 * HOUR_MS + 25 * MIN;
  const toMs = T0 + 27 * HOUR_MS + 10 * MIN;

  it("are written with each hour's rollup and read as the same rows and totals as gpu_hour", () => {
    const { db, store, close } = openStore(file, { sampleSpanMaxMs: 20 * MIN });
    fill(store);
    const hours = count(db, "SELECT count(DISTINCT hour_ms) FROM gpu_hour");
    assert.ok(hours >= HOURS);
    assert.equal(count(db, "SELECT count(*) FROM gpu_hour_pack"), hours);
    close();
    assertSameAsRollups(file, fromMs, toMs);
  });

  const previous = { fromMs: fromMs - 12 * HOUR_MS, toMs: fromMs };
  const config = configSchema.parse({
    team: { timezone: "Europe/Berlin", currency: "EUR" },
    costs: VALLEY_COSTS,
    hosts: { "gpu-a": { purchase_price: 200_000 }, "gpu-b": { cost_per_hour: 20 } },
  });
  const input = (
    store: MetricsStore,
    rows: HourRows,
    previousTotals: SummaryInput["previousTotals"],
  ): SummaryInput => ({
    period: { fromMs, toMs },
    previous,
    dataUntilMs: toMs,
    timezone: "Europe/Berlin",
    hosts: store.hosts(),
    rollups: rows,
    previousTotals,
    claims: [
      { host: "gpu-b", gpuIndex: 1, user: "U1", fromMs: fromMs + HOUR_MS, untilMs: toMs, releasedAtMs: null },
    ],
    audit: [],
    pricing: summaryPricing(config),
    paidByTheHour: (host) => host === "gpu-b",
    containers: { status: "off" },
    reclaim: [],
    renewalBelowPct: 20,
  });

  it("give the same summary as the rollups read row by row", () => {
    const { db, store, close } = openStore(file, { sampleSpanMaxMs: 20 * MIN });
    const summaries = createSummaryStore(db);
    const before = fromRollups(store, fromMs, toMs);
    const packed = buildSummaryModel(
      input(store, summaries.hourRows(fromMs, toMs), summaries.gpuTotals(previous.fromMs, previous.toMs)),
    );
    const rowByRow = buildSummaryModel(
      input(store, before.rows, byGpu(fromRollups(store, previous.fromMs, previous.toMs).totals)),
    );
    assert.ok(packed.fleet.idleCost > 0 && packed.previousFleet.busyGpuHours > 0);
    assert.deepEqual(packed, rowByRow);
    close();
  });

  it("are read hour by hour with the event loop turning between hours, while others write, to the same summary", async () => {
    const { db, store, close } = openStore(file, { sampleSpanMaxMs: 20 * MIN });
    const summaries = createSummaryStore(db);
    db.exec("CREATE TEMP TABLE beat (n INTEGER)");
    const beat = db.prepare("INSERT INTO beat (n) VALUES (1)");
    let turns = 0;
    const pause = () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          beat.run();
          turns++;
          resolve();
        }),
      );
    const totals = await summaries.gpuTotalsPaced(previous.fromMs, previous.toMs, pause);
    assert.deepEqual(totals, summaries.gpuTotals(previous.fromMs, previous.toMs));
    const afterTrend = turns;
    assert.ok(afterTrend >= 2, `${afterTrend} turns over the trend's hours`);
    const { containers: _, ...whole } = input(store, summaries.hourRows(fromMs, toMs), totals);
    const answered = Promise.resolve({ status: "failed" as const, message: "down" });
    const paced = await buildSummaryModelPaced(whole, answered, pause);
    assert.ok(turns - afterTrend >= 20, `${turns - afterTrend} turns over the period's hours`);
    const all = buildSummaryModel({
      ...input(store, summaries.hourRows(fromMs, toMs), totals),
      containers: await answered,
    });
    assert.deepEqual(paced, all);
    assert.deepEqual(paced.containers, { status: "failed", message: "down" });
    close();
  });

  it("leave an hour without a pack to gpu_hour, and the next rollup packs it (a store from before step 15)", () => {
    const { db, close } = openStore(file, { sampleSpanMaxMs: 20 * MIN });
    db.exec("DELETE FROM gpu_hour_pack WHERE hour_ms % (3 * 3600000) = 0");
    const left = count(db, "SELECT count(*) FROM gpu_hour_pack");
    close();
    assertSameAsRollups(file, fromMs, toMs);
    const again = openStore(file, { sampleSpanMaxMs: 20 * MIN });
    assert.equal(again.store.rollup(T0 + (HOURS + 1) * HOUR_MS, 10, 2).complete, false);
    while (!again.store.rollup(T0 + (HOURS + 1) * HOUR_MS, 10, 2).complete) {}
    assert.ok(count(again.db, "SELECT count(*) FROM gpu_hour_pack") > left);
    assert.equal(
      count(again.db, "SELECT count(*) FROM gpu_hour_pack"),
      count(again.db, "SELECT count(DISTINCT hour_ms) FROM gpu_hour"),
    );
    again.close();
    assertSameAsRollups(file, fromMs, toMs);
  });

  it("are pruned after 35 days while the rollups stay, and the summary still reads the same", () => {
    const { db, store, close } = openStore(file, { sampleSpanMaxMs: 20 * MIN });
    store.prune(T0 + 35 * DAY_MS + 10 * HOUR_MS, 7, 400);
    const packs = count(db, "SELECT count(*) FROM gpu_hour_pack");
    assert.ok(packs > 0 && packs < count(db, "SELECT count(DISTINCT hour_ms) FROM gpu_hour"));
    assert.equal(count(db, "SELECT count(*) FROM gpu_hour_pack WHERE hour_ms < ?", T0 + 10 * HOUR_MS), 0);
    close();
    assertSameAsRollups(file, fromMs, toMs);
  });
});
