import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import type { PersistedJob } from "../../src/jobs/slot-runner.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { ALICE, BotHarness, CHANNEL, EVE, standardConfig } from "../helpers/bot-harness.ts";
import { shownText } from "../helpers/shown-blocks.ts";
import { gpu } from "../store/store-fixtures.ts";

/** gpu-a: GPU 0 busy, GPU 1 idle, 100 W each. */
function gpuA(atMs: number): HostObservation[] {
  return [
    {
      host: "gpu-a",
      source: "ssh",
      atMs,
      ok: true,
      gpus: [gpu(0, { utilPct: 80, powerW: 100 }), gpu(1, { utilPct: 0, powerW: 100 })],
      sessions: [],
      cpuLoad1: 0,
      cpuUtilPct: 0,
      containers: [],
    },
  ];
}

/**
 * A bot started `minutes` ago over a store with `historyMinutes` of readings from before (an earlier run that
 * stopped before its hourly rollup): the readings written straight into the store, then the fresh
 * bot polling for `minutes`. No job has run since the start.
 */
async function freshStart(startMs: number, historyMinutes: number, minutes: number): Promise<BotHarness> {
  const h = await BotHarness.start({
    transport: "socket",
    config: standardConfig(
      { "gpu-a": { owners: [ALICE], purchase_price: 8766, lifetime_months: 12 } },
      { costs: { electricity: { price_per_kwh: 0.5 } }, policy: { idle_for_minutes: 600 } },
    ),
  });
  for (let atMs = startMs - historyMinutes * MINUTE_MS; atMs < startMs; atMs += MINUTE_MS) {
    h.metrics.writeCycle(gpuA(atMs), atMs);
  }
  h.clock.set(startMs);
  h.pollFor(minutes, gpuA);
  return h;
}

async function postSummaryNow(h: BotHarness): Promise<string> {
  const job = h.jobs.find((candidate) => candidate.name === "summary") as PersistedJob;
  await job.run({
    atMs: h.clock.now(),
    late: false,
    skipped: 0,
    commit: (effect) => {
      effect?.();
      return true;
    },
  });
  await h.settle();
  const posted = h.emulator.channel(CHANNEL).messages.at(-1);
  return JSON.stringify(posted?.blocks ?? []).replaceAll("\\u200b", "");
}

describe("a first day that adds up, over the real bot", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(async () => {
    await h.closeChecked();
  });

  test("10 minutes after a start past midnight, /gpu report 7d has the day before, with when its readings start", async () => {
    // Readings from Sunday 21:00 Berlin; the bot restarted at 23:55 and it is 00:05 on Monday.
    h = await freshStart(Date.UTC(2026, 0, 4, 22, 55), 175, 10);
    const reply = await h.user.slashCommand({ user: EVE, text: "report 7d" });
    const text = shownText(reply.ackPayload?.blocks as unknown[]);
    assert.match(
      text,
      /\*Cost ledger, last 7 days\* \(Sun, Jan 4, 2026 – Sun, Jan 4, 2026, Europe\/Berlin\)/,
    );
    assert.match(text, /3\.0 busy of 6\.0 GPU-hours on/);
    assert.match(
      text,
      /The first reading is from Sun, Jan 4, 21:00: the hours before it are not in the ledger\./,
    );
    await h.emulator.waitFor(() => h.emulator.files()[0]?.completed === true, "the CSV upload");
  });

  test("10 minutes after a start, /gpu report says how much history there is before its first day", async () => {
    // Readings since 07:00 Berlin on Monday (06:00 UTC); the bot started at 10:00, it is 10:10.
    h = await freshStart(Date.UTC(2026, 0, 5, 9), 180, 10);
    const reply = await h.user.slashCommand({ user: EVE, text: "report 7d" });
    assert.equal(
      reply.ackPayload?.text,
      "*Cost ledger, last 7 days*: no complete day in the ledger yet, 3 h 10 min of readings since Mon, Jan 5, 07:00. " +
        "A day is in the ledger once it is over (in Europe/Berlin); `/gpu status` shows the fleet now.",
    );
  });

  test("the summary 10 minutes after a start counts the hours the store has, not '0 of 14 days'", async () => {
    h = await freshStart(Date.UTC(2026, 0, 5, 9), 180, 10);
    const text = await postSummaryNow(h);
    assert.match(text, /3 h of 14 days \(Mon, Jan 5 07:00 – Mon, Jan 5 10:00\); readings for 100 %/);
    assert.doesNotMatch(text, /no GPU seen|not priced/);
  });
});
