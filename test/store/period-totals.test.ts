import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { Database } from "better-sqlite3";
import { configSchema } from "../../src/config/schema.ts";
import { hourRowsOf } from "../../src/reports/hour-rows.ts";
import type { Period, SummaryInput } from "../../src/reports/summary-model.ts";
import { HOUR_MS } from "../../src/shared/clock.ts";
import { createHourPacks } from "../../src/store/hour-packs.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import {
  createSummaryStore,
  type GpuPeriodTotals,
  type HourRows,
  type SummaryStore,
} from "../../src/store/summary-store.ts";
import { summaryPricing } from "../../src/usecases/ledger/summary-pricing.ts";
import { buildSummaryModel } from "../helpers/summary-model-now.ts";
import {
  byGpu,
  count,
  okHost,
  openStore,
  sqlGpuTotals,
  tempDir,
  VALLEY_COSTS,
  variedFleet,
  variedReading,
} from "./store-fixtures.ts";

const T0 = Date.UTC(2026, 2, 2, 6, 0, 0);
const MIN = 60_000;
const HOURS = 30;
const SPAN = { sampleSpanMaxMs: 20 * MIN };
const temp = tempDir("gw-store-period-totals-");
after(() => temp.remove());

/** Two periods of 12 hours, not on the hour (as a summary's local slot may be). */
const P1: Period = { fromMs: T0 + 2 * HOUR_MS + 25 * MIN, toMs: T0 + 14 * HOUR_MS + 25 * MIN };
const P2: Period = { fromMs: P1.toMs, toMs: P1.toMs + 12 * HOUR_MS };

/** Polls every 7 minutes from `fromMs` until `untilMs`, rolled up as far as they go. */
function fill(store: MetricsStore, fromMs: number, untilMs: number): void {
  for (let step = Math.ceil((fromMs - T0) / (7 * MIN)); T0 + step * 7 * MIN < untilMs; step++) {
    const atMs = T0 + step * 7 * MIN;
    const hosts = variedFleet(atMs, step);
    // NOTE: a host that joins and leaves: hours whose GPU ids differ from the hour before's.
    if (atMs >= T0 + 8 * HOUR_MS && atMs < T0 + 20 * HOUR_MS)
      hosts.push(okHost("gpu-d", atMs, { gpus: [0].map((i) => variedReading(i + 8, step)) }));
    store.writeCycle(hosts, atMs);
  }
  while (!store.rollup(untilMs, 10, 7).complete) {}
}

const sqlTotals = (store: MetricsStore, period: Period) => sqlGpuTotals(store, period.fromMs, period.toMs);

/** The rows one by one, by GPU name. */
const rowsOf = (rows: HourRows) =>
  [...rows.hours].flatMap((chunk) =>
    Array.from(chunk.gpu, (gpu, k) => [
      chunk.hourMs,
      rows.gpus[gpu],
      chunk.utilMeanPct[k],
      chunk.busyMinutes[k],
      chunk.idleMinutes[k],
      chunk.energyWh[k],
    ]),
  );

/** What the summary of `period` does once posted: keeps its sums (true: kept). */
async function summarise(summaries: SummaryStore, period: Period): Promise<boolean> {
  let turns = 0;
  const kept = await summaries.keepTotals(period.fromMs, period.toMs, async () => {
    turns++;
  });
  assert.ok(turns >= 5, `${turns} event-loop turns over its hours`);
  return kept;
}

const kept = (db: Database) => db.prepare("SELECT from_ms, covered_ms FROM period_totals").all();

const config = configSchema.parse({
  team: { timezone: "Europe/Berlin", currency: "EUR" },
  costs: VALLEY_COSTS,
  hosts: {
    "gpu-a": { purchase_price: 200_000 },
    "gpu-b": { cost_per_hour: 20 },
    "gpu-c": { cost_per_hour: 3 },
  },
});

/** The summary model of P2 with `previousTotals` as P1's totals. */
function modelOfP2(store: MetricsStore, summaries: SummaryStore, previousTotals: readonly GpuPeriodTotals[]) {
  const input: SummaryInput = {
    period: P2,
    previous: P1,
    dataUntilMs: P2.toMs,
    timezone: "Europe/Berlin",
    hosts: store.hosts(),
    rollups: summaries.hourRows(P2.fromMs, P2.toMs),
    previousTotals,
    claims: [],
    audit: [],
    pricing: summaryPricing(config),
    paidByTheHour: (host) => host !== "gpu-a",
    containers: { status: "off" },
    reclaim: [],
    renewalBelowPct: 20,
  };
  return buildSummaryModel(input);
}

/** Multiplies every kept sum by 1.5: kept sums that are read then give other totals. */
function spoilKept(db: Database): void {
  const [fromMs, blob] = db.prepare("SELECT from_ms, sums FROM period_totals").raw().get() as [
    number,
    Buffer,
  ];
  const sums = new Float64Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
  for (let i = 0; i < sums.length; i++) sums[i] = sums[i]! * 1.5;
  db.prepare("UPDATE period_totals SET sums = ? WHERE from_ms = ?").run(Buffer.from(sums.buffer), fromMs);
}

describe("a summary period's kept sums (schema step 17)", () => {
  it("are kept by the summary and give the next summary's trend to the bit, the same model as the packs", async () => {
    const { db, store, close } = openStore(temp.file("kept.db"), SPAN);
    fill(store, T0, T0 + (HOURS + 1) * HOUR_MS);
    const summaries = createSummaryStore(db);
    const fromPacks = summaries.gpuTotals(P1.fromMs, P1.toMs);
    assert.deepEqual(byGpu(fromPacks), byGpu(sqlTotals(store, P1)));
    assert.ok(fromPacks.some((totals) => totals.host === "gpu-d"));
    assert.deepEqual(
      rowsOf(summaries.hourRows(P2.fromMs, P2.toMs)),
      rowsOf(hourRowsOf(store.rollupsBetween(P2.fromMs, P2.toMs))),
    );
    assert.equal(count(db, "SELECT count(*) FROM period_totals"), 0);

    await summarise(summaries, P1);
    const lastHour = Math.floor((P1.toMs - 1) / HOUR_MS) * HOUR_MS;
    assert.deepEqual(kept(db), [{ from_ms: P1.fromMs, covered_ms: lastHour + HOUR_MS }]);
    const fromKept = summaries.gpuTotals(P1.fromMs, P1.toMs);
    assert.deepEqual(fromKept, fromPacks);
    const model = modelOfP2(store, summaries, fromKept);
    assert.ok(model.previousFleet.busyGpuHours > 0 && model.previousFleet.idleCost > 0);
    assert.deepEqual(model, modelOfP2(store, summaries, fromPacks));

    spoilKept(db);
    const spoiled = summaries.gpuTotals(P1.fromMs, P1.toMs);
    assert.notDeepEqual(spoiled, fromPacks, "the trend reads the kept sums");
    assert.notDeepEqual(modelOfP2(store, summaries, spoiled).previousFleet, model.previousFleet);
    close();
  });

  it("are dropped when a pack within them is written again or deleted: the trend reads the packs", async () => {
    const { db, store, close } = openStore(temp.file("kept.db"), SPAN);
    const summaries = createSummaryStore(db);
    const packs = createHourPacks(db);
    const hourMs = T0 + 5 * HOUR_MS;
    await summarise(summaries, P1);
    spoilKept(db);
    db.prepare("UPDATE gpu_hour SET busy_min = busy_min + 1.25 WHERE hour_ms = ?").run(hourMs);
    packs.pack(hourMs);
    assert.deepEqual(kept(db), []);
    const changed = summaries.gpuTotals(P1.fromMs, P1.toMs);
    assert.deepEqual(byGpu(changed), byGpu(sqlTotals(store, P1)));

    await summarise(summaries, P1);
    spoilKept(db);
    db.prepare("DELETE FROM gpu_hour_pack WHERE hour_ms = ?").run(hourMs);
    assert.deepEqual(kept(db), []);
    assert.deepEqual(summaries.gpuTotals(P1.fromMs, P1.toMs), changed);
    assert.equal(await summarise(summaries, P1), false);
    assert.deepEqual(kept(db), [], "an hour read from gpu_hour (no pack): nothing kept");
    packs.pack(hourMs);
    close();
  });

  it("serve only a period with the same start, not past its end; packs outside them keep them", async () => {
    const { db, store, close } = openStore(temp.file("kept.db"), SPAN);
    const summaries = createSummaryStore(db);
    await summarise(summaries, P1);
    spoilKept(db);
    const shorter = { fromMs: P1.fromMs, toMs: P1.toMs - 3 * HOUR_MS };
    const later = { fromMs: P1.fromMs + HOUR_MS, toMs: P1.toMs };
    for (const period of [shorter, later])
      assert.deepEqual(
        byGpu(summaries.gpuTotals(period.fromMs, period.toMs)),
        byGpu(sqlTotals(store, period)),
      );
    createHourPacks(db).pack(T0 + 16 * HOUR_MS);
    createHourPacks(db).pack(T0);
    assert.equal(count(db, "SELECT count(*) FROM period_totals"), 1);
    close();
  });

  it("kept before the period's last hours are rolled up, resume with them to the same totals", async () => {
    const { db, store, close } = openStore(temp.file("late.db"), SPAN);
    fill(store, T0, P1.toMs - 2 * HOUR_MS);
    const summaries = createSummaryStore(db);
    await summarise(summaries, P1);
    const [row] = kept(db) as { covered_ms: number }[];
    assert.ok(row !== undefined && row.covered_ms < P1.toMs - 2 * HOUR_MS);
    fill(store, P1.toMs - 2 * HOUR_MS, T0 + (HOURS + 1) * HOUR_MS);
    assert.equal(count(db, "SELECT count(*) FROM period_totals"), 1);
    const resumed = summaries.gpuTotals(P1.fromMs, P1.toMs);
    assert.deepEqual(byGpu(resumed), byGpu(sqlTotals(store, P1)));
    assert.deepEqual(modelOfP2(store, summaries, resumed), modelOfP2(store, summaries, sqlTotals(store, P1)));
    spoilKept(db);
    assert.notDeepEqual(summaries.gpuTotals(P1.fromMs, P1.toMs), resumed, "the trend reads the kept sums");
    close();
  });
});
