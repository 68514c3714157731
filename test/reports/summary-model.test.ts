import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renderSummaryMessage } from "../../src/bot/views/ledger/summary-message.ts";
import type { GpuHourRollup, HostRecord } from "../../src/domain/metrics.ts";
import { translator } from "../../src/messages/translator.ts";
import { hourRowsOf } from "../../src/reports/hour-rows.ts";
import { summaryPeriod } from "../../src/usecases/ledger/build-summary.ts";
import { buildSummaryModel } from "../helpers/summary-model-now.ts";

const EN = translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" });

const ZONE = "Europe/Berlin";
/** Monday 16 March 2026, 10:00 in Berlin. */
const SLOT = Date.UTC(2026, 2, 16, 9, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Four 8-GPU hosts first seen 3 days before the slot: `priced` (€2/h, 2 idle hours), `idle-x` and
 * `idle-y` (no price, 21 idle hours on every GPU), `busy` (no price, never idle).
 */
function fixture() {
  const period = summaryPeriod(SLOT, ZONE);
  const seenMs = period.toMs - 3 * DAY;
  const names = ["priced", "idle-x", "idle-y", "busy"];
  const hosts: HostRecord[] = names.map((name) => ({
    name,
    source: "ssh",
    firstSeenMs: seenMs,
    gpus: Array.from({ length: 8 }, (_, index) => ({
      index,
      uuid: null,
      model: "A100",
      memTotalMiB: 81_920,
      mig: false,
      firstSeenMs: seenMs,
    })),
  }));
  const idleHours: Record<string, number> = { priced: 2, "idle-x": 21, "idle-y": 21, busy: 0 };
  const rollups: GpuHourRollup[] = [];
  for (let hourMs = seenMs; hourMs < period.toMs; hourMs += HOUR) {
    const hour = (hourMs - seenMs) / HOUR;
    for (const host of hosts) {
      for (const gpu of host.gpus) {
        const idle = hour < idleHours[host.name]!;
        rollups.push({
          host: host.name,
          index: gpu.index,
          uuid: null,
          hourMs,
          utilMeanPct: idle ? 0 : 90,
          utilMaxPct: idle ? 0 : 95,
          busyMinutes: idle ? 0 : 60,
          idleMinutes: idle ? 60 : 0,
          unknownMinutes: 0,
          memMeanMiB: null,
          memMaxMiB: null,
          energyWh: null,
        });
      }
    }
  }
  return buildSummaryModel({
    period,
    previous: summaryPeriod(period.fromMs, ZONE),
    dataUntilMs: period.toMs,
    timezone: ZONE,
    hosts,
    rollups: hourRowsOf(rollups),
    previousTotals: [],
    claims: [],
    audit: [],
    pricing: {
      currency: "EUR",
      hostCost: (host, usage) => (host === "priced" ? (2 * (usage.toMs - usage.fromMs)) / HOUR : null),
      offSaving: () => null,
    },
    paidByTheHour: () => false,
    containers: { status: "off" },
    reclaim: [],
    renewalBelowPct: 20,
  });
}

describe("the summary model with hosts that have no price", () => {
  test("ranks by idle cost, then by idle hours; counts every GPU without a price; says how much has data", () => {
    const model = fixture();
    assert.deepEqual(
      model.hosts.map((h) => [h.host, h.idleGpuHours, h.idleCost === null ? null : Math.round(h.idleCost)]),
      [
        ["priced", 16, 4],
        ["idle-x", 168, null],
        ["idle-y", 168, null],
        ["busy", 0, null],
      ],
    );
    assert.equal(model.fleet.unpricedGpus, 24, "idle-x, idle-y and busy: 8 GPUs each");
    assert.deepEqual(model.coverage, { fromMs: SLOT - 3 * DAY, untilMs: SLOT, readShare: 1 });

    const text = JSON.stringify(
      renderSummaryMessage(EN, model, { teamName: "ml", lateSinceMs: null, filesAttached: true }).blocks,
    );
    assert.match(text, /\(24 GPUs without a price left out\)/);
    assert.match(
      text,
      /\*Data\*\\n3 of 14 days \(Fri, Mar 13 10:00 – Mon, Mar 16 10:00\); readings for 100 % of GPU time, 0 h without/,
    );
  });
});
