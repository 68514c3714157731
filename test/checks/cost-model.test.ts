import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gpuHoursOf, hostHourUsages, usageRate } from "../../src/checks/cost-hour-usage.ts";
import {
  addClockHourCost,
  cachedPriceOver,
  costOfHours,
  HOURS_PER_MONTH,
  type HostHourUsage,
  hostCostBasis,
  hostHourCost,
  hostHourSplit,
  isRentedOrCloud,
} from "../../src/checks/cost-model.ts";
import { localDayBounds } from "../../src/checks/local-day.ts";
import { tariffOf } from "../../src/checks/tariff-price.ts";
import type { GpuHourRollup } from "../../src/domain/metrics.ts";

const HOUR_MS = 3_600_000;
const COSTS = { upkeep_pct: 30, lifetime_months: 36 };
const close = (actual: number | null, expected: number, what = "") =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${what} ${actual} is not ${expected}`);

/** A host bought for 8,766 written off over 12 months: exactly 1.00 an hour, upkeep 0.30. */
const OWNED = hostCostBasis({ purchase_price: 8766, lifetime_months: 12, rated_watts: 2000 }, COSTS);
const FLAT = cachedPriceOver(tariffOf({ price_per_kwh: 0.5, windows: [] }, "UTC"));

function usage(hourMs: number, more: Partial<HostHourUsage> = {}): HostHourUsage {
  return {
    hourMs,
    fromMs: hourMs,
    toMs: hourMs + HOUR_MS,
    gpus: 8,
    busyGpuMinutes: 480,
    idleGpuMinutes: 0,
    unknownGpuMinutes: 0,
    onMinutes: 60,
    energyWh: null,
    ...more,
  };
}

describe("host cost basis", () => {
  it("owned: straight-line write-off per hour and upkeep as a share of it", () => {
    assert.equal(HOURS_PER_MONTH, 730.5);
    assert.equal(OWNED.kind, "owned");
    if (OWNED.kind !== "owned") return;
    close(OWNED.capitalPerHour, 1);
    close(OWNED.upkeepPerHour, 0.3);
    const defaults = hostCostBasis({ purchase_price: 26_298 }, COSTS);
    assert.ok(defaults.kind === "owned");
    assert.equal(defaults.lifetimeMonths, 36);
    assert.equal(defaults.upkeepPct, 30);
    close(defaults.capitalPerHour, 1);
  });

  it("rate: cloud billed while on, a rental every hour; no price: none", () => {
    assert.deepEqual(hostCostBasis({ cost_per_hour: 12 }, COSTS), {
      kind: "rate",
      costPerHour: 12,
      billedWhenOff: false,
      upkeepOnPerHour: 0,
    });
    assert.equal(hostCostBasis({ cost_per_hour: 12, rented: true }, COSTS).kind, "rate");
    assert.equal(isRentedOrCloud(hostCostBasis({ cost_per_hour: 12, rented: true }, COSTS)), true);
    assert.equal(isRentedOrCloud(OWNED), false);
    assert.deepEqual(hostCostBasis(undefined, COSTS), { kind: "none", ratedWatts: null });
  });
});

describe("costOfHours", () => {
  const h0 = Date.UTC(2026, 0, 5, 10);

  it("owned: write-off and upkeep every hour, energy from the readings × the tariff", () => {
    const cost = costOfHours(OWNED, FLAT, [usage(h0, { energyWh: 4000 })]);
    close(cost.capital, 1);
    close(cost.upkeep, 0.3);
    close(cost.energyKWh, 4);
    close(cost.energyCost, 2);
    close(cost.total, 3.3);
    close(cost.idle, 0);
    assert.equal(cost.rent, 0);
  });

  it("falls back to rated watts × time on when there is no power reading; off hours still cost the write-off", () => {
    const cost = costOfHours(OWNED, FLAT, [
      usage(h0, { onMinutes: 30, busyGpuMinutes: 240, unknownGpuMinutes: 240 }),
      usage(h0 + HOUR_MS, { onMinutes: 0, busyGpuMinutes: 0, unknownGpuMinutes: 480 }),
    ]);
    close(cost.energyKWh, 1, "2 kW for 30 min");
    close(cost.energyCost, 0.5);
    close(cost.total, 2 * 1.3 + 0.5);
    assert.equal(cost.hours, 2);
    assert.equal(cost.onHours, 0.5);
  });

  it("energy stays unknown without readings and without rated watts", () => {
    const basis = hostCostBasis({ purchase_price: 8766, lifetime_months: 12 }, COSTS);
    const cost = costOfHours(basis, FLAT, [usage(h0)]);
    assert.equal(cost.energyKWh, null);
    close(cost.total, 1.3);
  });

  it("counts partial hours pro rata", () => {
    const half = usage(h0, {
      fromMs: h0 + HOUR_MS / 2,
      busyGpuMinutes: 120,
      idleGpuMinutes: 120,
      onMinutes: 30,
      energyWh: 1000,
    });
    const cost = costOfHours(OWNED, FLAT, [half]);
    close(cost.capital, 0.5);
    close(cost.upkeep, 0.15);
    close(cost.energyCost, 0.5);
    close(cost.total, 1.15);
    close(cost.idle, 1.15 / 2, "half the GPU-minutes of the half hour were idle");
  });

  it("idle cost is the idle GPU-minutes' share of each hour's cost", () => {
    const cost = costOfHours(OWNED, FLAT, [
      usage(h0, { busyGpuMinutes: 360, idleGpuMinutes: 120, energyWh: 2000 }),
      usage(h0 + HOUR_MS, { busyGpuMinutes: 0, idleGpuMinutes: 480, energyWh: 1000 }),
    ]);
    close(cost.total, 1.3 + 1 + 1.3 + 0.5);
    close(cost.idle, 2.3 * 0.25 + 1.8);
  });

  it("cloud: billed for the time on; a rental: every hour", () => {
    const hours = [usage(h0, { onMinutes: 45 }), usage(h0 + HOUR_MS, { onMinutes: 0, busyGpuMinutes: 0 })];
    const cloud = costOfHours(hostCostBasis({ cost_per_hour: 20 }, COSTS), FLAT, hours);
    close(cloud.rent, 15);
    close(cloud.total, 15);
    assert.equal(cloud.energyKWh, null, "a rate includes power; rated watts are not asked for");
    const rented = costOfHours(hostCostBasis({ cost_per_hour: 20, rented: true }, COSTS), FLAT, hours);
    close(rented.total, 40);
  });

  it("a host without a price has unknown money but known energy", () => {
    const cost = costOfHours(hostCostBasis({ rated_watts: 1000 }, COSTS), FLAT, [usage(h0)]);
    assert.equal(cost.total, null);
    assert.equal(cost.idle, null);
    close(cost.energyKWh, 1);
  });

  it("a 25-hour DST day writes off 25 hours; peak/valley prices follow the wall clock", () => {
    const zone = "Europe/Berlin";
    const tariff = tariffOf(
      { price_per_kwh: 0.3, windows: [{ name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.1 }] },
      zone,
    );
    const { startMs, endMs } = localDayBounds("2026-10-25", zone);
    const hours: HostHourUsage[] = [];
    for (let h = startMs; h < endMs; h += HOUR_MS) hours.push(usage(h, { energyWh: 1000 }));
    const cost = costOfHours(OWNED, cachedPriceOver(tariff), hours);
    assert.equal(hours.length, 25);
    close(cost.capital, 25);
    close(cost.energyCost, 9 * 0.1 + 16 * 0.3);
  });

  it("hostHourCost: what an hour of running costs now (alerts multiply it by idle time)", () => {
    const tariff = tariffOf(
      { price_per_kwh: 0.3, windows: [{ name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.1 }] },
      "UTC",
    );
    close(hostHourCost(OWNED, tariff, Date.UTC(2026, 0, 5, 12)), 1.3 + 2 * 0.3);
    close(hostHourCost(OWNED, tariff, Date.UTC(2026, 0, 5, 23)), 1.3 + 2 * 0.1);
    assert.equal(hostHourCost(hostCostBasis({ cost_per_hour: 7 }, COSTS), tariff, 0), 7);
    assert.equal(hostHourCost(hostCostBasis(undefined, COSTS), tariff, 0), null);
  });

  it("hostHourSplit: a stop saves a cloud price, power and upkeep per hour on; the write-off, the upkeep share and a rental run on", () => {
    const tariff = tariffOf({ price_per_kwh: 0.3, windows: [] }, "UTC");
    const bought = hostCostBasis({ purchase_price: 8766, lifetime_months: 12, rated_watts: 6500 }, COSTS);
    const split = hostHourSplit(bought, tariff, 0);
    close(split?.stoppablePerHour ?? null, 1.95, "6.5 kW at 0.30");
    close(split?.fixedPerHour ?? null, 1.3, "write-off 1.00 + upkeep 0.30");
    close(hostHourCost(bought, tariff, 0), 3.25);
    const staffed = hostCostBasis(
      { purchase_price: 8766, lifetime_months: 12, upkeep_per_hour_on: 0.5 },
      COSTS,
    );
    close(hostHourSplit(staffed, tariff, 0)?.stoppablePerHour ?? null, 0.5, "no rated watts: upkeep on only");
    assert.deepEqual(hostHourSplit(hostCostBasis({ cost_per_hour: 7 }, COSTS), tariff, 0), {
      stoppablePerHour: 7,
      fixedPerHour: 0,
    });
    assert.deepEqual(hostHourSplit(hostCostBasis({ cost_per_hour: 7, rented: true }, COSTS), tariff, 0), {
      stoppablePerHour: 0,
      fixedPerHour: 7,
    });
    assert.equal(hostHourSplit(hostCostBasis(undefined, COSTS), tariff, 0), null);
  });

  it("costOfHours: idle capacity unused, and the part of it a stop would have saved", () => {
    const bought = hostCostBasis(
      { purchase_price: 8766, lifetime_months: 12, upkeep_per_hour_on: 0.2 },
      COSTS,
    );
    const idleHour = usage(h0, {
      gpus: 2,
      busyGpuMinutes: 0,
      idleGpuMinutes: 120,
      onMinutes: 60,
      energyWh: 1000,
    });
    const totals = costOfHours(bought, FLAT, [idleHour]);
    close(totals.total, 1 + 0.3 + 0.2 + 0.5);
    close(totals.idle, 2);
    close(totals.stoppable, 0.5 + 0.2, "power 1 kWh × 0.5 + upkeep on");
    close(totals.idleStoppable, 0.7);
    const offHour = usage(h0 + HOUR_MS, { gpus: 2, idleGpuMinutes: 0, onMinutes: 0, energyWh: null });
    close(costOfHours(bought, FLAT, [offHour]).stoppable, 0, "off: nothing left to save");
  });
});

function rollup(
  index: number,
  hourMs: number,
  busy: number,
  idle: number,
  energyWh: number | null,
): GpuHourRollup {
  return {
    host: "gpu-a",
    index,
    uuid: null,
    hourMs,
    utilMeanPct: null,
    utilMaxPct: null,
    busyMinutes: busy,
    idleMinutes: idle,
    unknownMinutes: 60 - busy - idle,
    memMeanMiB: null,
    memMaxMiB: null,
    energyWh,
  };
}

describe("hostHourUsages", () => {
  const h0 = Date.UTC(2026, 0, 5, 10);
  const gpus = [
    { index: 0, firstSeenMs: h0 - HOUR_MS },
    { index: 1, firstSeenMs: h0 - HOUR_MS },
  ];

  it("sums a host's GPUs per hour; an hour without rollups is unknown; on is the best-covered GPU", () => {
    const usages = hostHourUsages({
      rollups: [
        rollup(0, h0, 60, 0, 300),
        rollup(1, h0, 10, 20, 100),
        rollup(0, h0 + 2 * HOUR_MS, 0, 45, null),
        { ...rollup(0, h0, 60, 0, 300), host: "gpu-b" },
      ],
      host: "gpu-a",
      gpus,
      fromMs: h0,
      toMs: h0 + 3 * HOUR_MS,
    });
    assert.deepEqual(
      usages.map((u) => [u.busyGpuMinutes, u.idleGpuMinutes, u.unknownGpuMinutes, u.onMinutes, u.energyWh]),
      [
        [70, 20, 30, 60, 400],
        [0, 0, 120, 0, null],
        [0, 45, 75, 45, null],
      ],
    );
    const total = gpuHoursOf(usages);
    assert.deepEqual(total, { busy: 70 / 60, idle: 65 / 60, unknown: 225 / 60 });
    close(usageRate(total.busy, total.idle), 70 / 135);
    assert.equal(usageRate(0, 0), null);
  });

  it("cuts clock hours at the span's edges pro rata, and counts a GPU from the hour it was first seen", () => {
    const usages = hostHourUsages({
      rollups: [rollup(0, h0, 60, 0, 600), rollup(0, h0 + HOUR_MS, 0, 60, 120)],
      gpus: [
        { index: 0, firstSeenMs: h0 },
        { index: 1, firstSeenMs: h0 + HOUR_MS + 5 * 60_000 },
      ],
      fromMs: h0 + HOUR_MS / 2,
      toMs: h0 + HOUR_MS + HOUR_MS / 4,
    });
    assert.deepEqual(
      usages.map((u) => [
        u.fromMs - h0,
        u.toMs - h0,
        u.gpus,
        u.busyGpuMinutes,
        u.idleGpuMinutes,
        u.unknownGpuMinutes,
      ]),
      [
        [HOUR_MS / 2, HOUR_MS, 1, 30, 0, 0],
        [HOUR_MS, HOUR_MS + HOUR_MS / 4, 2, 0, 15, 15],
      ],
    );
    assert.deepEqual(
      usages.map((u) => [u.onMinutes, u.energyWh]),
      [
        [30, 300],
        [15, 30],
      ],
    );
    assert.deepEqual(
      hostHourUsages({
        rollups: [],
        gpus: [{ index: 0, firstSeenMs: h0 + 9 * HOUR_MS }],
        fromMs: h0,
        toMs: h0 + HOUR_MS,
      }),
      [],
      "no hours before the host's first GPU was seen",
    );
  });
});

describe("addClockHourCost", () => {
  it("gives costOfHours' total and stoppable of one clock hour, to the bit, for every kind of host", () => {
    const valley = cachedPriceOver(
      tariffOf(
        {
          price_per_kwh: 0.31,
          windows: [{ name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.17 }],
        },
        "Europe/Berlin",
      ),
    );
    const bases = [
      OWNED,
      hostCostBasis({ purchase_price: 250_000, upkeep_per_hour_on: 0.7 }, COSTS),
      hostCostBasis({ cost_per_hour: 24 }, COSTS),
      hostCostBasis({ cost_per_hour: 24, rented: true, upkeep_per_hour_on: 1.3 }, COSTS),
      hostCostBasis({ rated_watts: 1000 }, COSTS),
    ];
    const out = new Float64Array(2);
    for (const basis of bases)
      for (const hourMs of [Date.UTC(2026, 11, 1, 3), Date.UTC(2026, 11, 1, 13)])
        for (const onMinutes of [0, 17.5, 60])
          for (const energyWh of [null, 0, 1234.56]) {
            const hour = usage(hourMs, { onMinutes, energyWh });
            const expected = costOfHours(basis, valley, [hour]);
            addClockHourCost(basis, valley(hourMs, hourMs + HOUR_MS), onMinutes, energyWh ?? Number.NaN, out);
            const what = `${basis.kind} at ${new Date(hourMs).toISOString()}, on ${onMinutes} min, ${energyWh} Wh`;
            assert.equal(out[0], expected.total ?? Number.NaN, `cost: ${what}`);
            assert.equal(out[1], expected.stoppable ?? Number.NaN, `saving: ${what}`);
          }
  });
});
