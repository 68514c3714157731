import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import { type PlacementSeat, placeByPrice } from "../../src/checks/placement.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { observed, reading } from "../checks/builders.ts";
import { ALICE, BOB, BotHarness, EVE, standardConfig, T0 } from "../helpers/bot-harness.ts";
import { shownText as shown } from "../helpers/shown-blocks.ts";

describe("cost-aware placement (pure)", () => {
  const seat = (host: string, index: number, price: number | null, memGiB = 80): PlacementSeat => ({
    host,
    index,
    model: null,
    state: "idle",
    memTotalMiB: memGiB * 1024,
    pricePerGpuHour: price,
  });
  const fleet = [
    ...[0, 1, 2, 3].map((i) => seat("dear", i, 3)),
    ...[0, 1].map((i) => seat("cheap", i, 1)),
    ...[0, 1, 2, 3].map((i) => seat("small", i, 0.2, 24)),
    ...[0, 1, 2, 3].map((i) => seat("unpriced", i, null)),
  ];

  test("the cheapest host with enough fitting GPUs, packed on one host before mixing hosts", () => {
    assert.deepEqual(placeByPrice(fleet, [], 2, 40 * 1024), {
      kind: "placed",
      picks: [{ host: "cheap", gpus: [0, 1], pricePerGpuHour: 1 }],
      pricePerHour: 2,
    });
    const three = placeByPrice(fleet, [], 3, 40 * 1024);
    assert.deepEqual(three.kind === "placed" && three.picks.map((pick) => pick.host), ["dear"]);
    const seven = placeByPrice(fleet, [], 7, 40 * 1024);
    assert.deepEqual(seven.kind === "placed" && seven.picks, [
      { host: "cheap", gpus: [0, 1], pricePerGpuHour: 1 },
      { host: "dear", gpus: [0, 1, 2, 3], pricePerGpuHour: 3 },
      { host: "unpriced", gpus: [0], pricePerGpuHour: null },
    ]);
    assert.equal(seven.kind === "placed" && seven.pricePerHour, null, "unknown when any GPU has no price");
  });

  test("claimed, busy or unread GPUs are not free; a 24 GiB floor takes a 4090's 24,564 MiB", () => {
    const claims = [
      { host: "cheap", gpuIndex: 0 },
      { host: "dear", gpuIndex: null },
    ];
    const busy = fleet.map((s) =>
      s.host === "unpriced" && s.index < 3 ? { ...s, state: "busy" as const } : s,
    );
    assert.deepEqual(placeByPrice(busy, claims, 3, 40 * 1024), { kind: "short", free: 2, fitting: 14 - 4 });
    const rtx = [
      { ...seat("rtx", 0, 0.1), memTotalMiB: 24_564 },
      { ...seat("rtx", 1, 0.1), state: "unknown" as const },
    ];
    assert.deepEqual(placeByPrice(rtx, [], 1, 24 * 1024), {
      kind: "placed",
      picks: [{ host: "rtx", gpus: [0], pricePerGpuHour: 0.1 }],
      pricePerHour: 0.1,
    });
  });

  test("grammar: a memory floor after the count, --valley anywhere after the target", () => {
    assert.deepEqual(parseCommand("claim 2 gpus>=40g for 4h tuning --valley"), {
      kind: "claim",
      target: { kind: "count", count: 2, model: null },
      durationMs: 4 * HOUR_MS,
      note: "tuning",
      placement: { floorMiB: 40 * 1024, valley: true },
    });
    assert.deepEqual(
      parseCommand("claim 1 GPU>=80GB").kind === "claim" && parseCommand("claim 1 GPU>=80GB"),
      {
        kind: "claim",
        target: { kind: "count", count: 1, model: null },
        durationMs: null,
        note: "",
        placement: { floorMiB: 80 * 1024, valley: false },
      },
    );
    assert.equal(parseCommand("claim gpu-a --valley").kind, "invalid");
    assert.equal(parseCommand("claim 2 gpus>=40g --wait").kind, "claim");
  });
});

/** `host`'s four GPUs, idle, with `memMiB` each. */
const hostOf =
  (host: string, memMiB: number) =>
  (atMs: number): HostObservation => ({
    ...observed(host, atMs, [0, 0, 0, 0]),
    gpus: [0, 1, 2, 3].map((index) => reading(index, 0, { memTotalMiB: memMiB })),
  });
const fleet = (atMs: number) => [
  hostOf("big-a", 81_559)(atMs),
  hostOf("big-b", 81_559)(atMs),
  hostOf("small", 24_564)(atMs),
];

describe("/gpu claim <n> gpus>=<GiB> over the real Bolt app", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("the cheapest fitting GPUs, packed on one host, with the price; --valley only in the valley", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        {
          "big-a": { cost_per_hour: 8 },
          "big-b": { purchase_price: 100_000, lifetime_months: 36, rated_watts: 2000 },
          small: { cost_per_hour: 2 },
        },
        {
          team: { timezone: "Europe/Berlin", currency: "EUR" },
          costs: {
            electricity: {
              price_per_kwh: 0.3,
              windows: [{ name: "valley", from: "23:00", to: "07:00", price_per_kwh: 0.1 }],
            },
          },
        },
      ),
    });
    h.pollFor(1, fleet);
    // big-b: (100,000 / (36 × 730.5) × 1.3 + 2 kW × €0.30) / 4 GPUs = €1.39 per GPU-hour; big-a €2.00; small €0.50 but 24 GiB.
    const first = await h.user.slashCommand({ user: EVE, text: "claim 2 gpus>=40g for 4h tuning" });
    assert.match(shown(first.ackPayload?.blocks as unknown[]), /big-b:0,1/);
    assert.match(
      shown(first.ackPayload?.blocks as unknown[]),
      /The cheapest 2 free GPUs with at least 40 GiB: €1\.39 per GPU-hour, €2\.77 an hour in all\./,
    );
    const second = await h.user.slashCommand({ user: ALICE, text: "claim 3 gpus>=40g" });
    assert.match(
      shown(second.ackPayload?.blocks as unknown[]),
      /big-a:0-2/,
      "three on one host before mixing",
    );
    assert.match(shown(second.ackPayload?.blocks as unknown[]), /€2\.00 per GPU-hour, €6\.00 an hour in all/);
    const third = await h.user.slashCommand({ user: BOB, text: "claim 2 gpus>=24g" });
    assert.match(shown(third.ackPayload?.blocks as unknown[]), /small:0,1/);
    const short = await h.user.slashCommand({ user: BOB, text: "claim 8 gpus>=80g" });
    assert.equal(
      short.ackPayload?.text,
      "Only 3 of the 8 GPUs with at least 80 GiB are free now; you asked for 8.",
    );

    const day = await h.user.slashCommand({ user: BOB, text: "claim 1 gpus>=40g --valley" });
    assert.equal(
      day.ackPayload?.text,
      "Batch work (`--valley`) is granted only in the valley hours (valley), next from Mon 23:00: claim again then. Electricity there is €0.10 instead of €0.30 per kWh.",
    );
    h.clock.set(T0 + 13 * HOUR_MS + 30 * MINUTE_MS); // 23:30 in Berlin
    h.pollFor(1, fleet);
    const night = await h.user.slashCommand({ user: BOB, text: "claim 1 gpus>=40g for 12h --valley" });
    const text = shown(night.ackPayload?.blocks as unknown[]);
    assert.match(text, /You hold big-b:0 until tomorrow 07:00/, "the 4 h claim on big-b:0 has ended by then");
    assert.match(text, /€1\.29 per GPU-hour/, "big-b's power at the valley price");
    assert.match(
      text,
      /Batch work in the valley hours \(valley\): yours until 07:00, when they end\. Electricity at €0\.10 instead of €0\.30 per kWh saves €0\.10 an hour\./,
    );
    const claim = h.state.claims.activeOf(BOB, h.clock.now()).find((c) => c.host === "big-b");
    assert.equal(claim?.untilMs, T0 + 21 * HOUR_MS, "cut to the valley's end, 07:00 Berlin");
  });
});
