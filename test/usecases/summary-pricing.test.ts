import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { meanTariffPrice, tariffOf } from "../../src/checks/tariff-price.ts";
import { configSchema } from "../../src/config/schema.ts";
import { fastPriceOver, summaryPricing } from "../../src/usecases/ledger/summary-pricing.ts";

const H = 3_600_000;
const electricity = {
  price_per_kwh: 0.3,
  windows: [
    { name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.12 },
    { name: "peak", from: "17:00", to: "20:30", price_per_kwh: 0.55 },
  ],
};

describe("summary pricing", () => {
  for (const zone of ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]) {
    test(`the fast tariff mean equals meanTariffPrice in ${zone}, across both DST switches`, () => {
      const tariff = tariffOf(electricity, zone);
      const priceOver = fastPriceOver(tariff);
      const spans: [number, number][] = [];
      for (const day of [
        Date.UTC(2026, 2, 28),
        Date.UTC(2026, 3, 4),
        Date.UTC(2026, 9, 24),
        Date.UTC(2026, 10, 1),
      ]) {
        for (let h = 0; h < 72; h++) spans.push([day + h * H, day + (h + 1) * H]);
        spans.push([day + 7 * 60_000 + 13, day + 50 * H + 31_000]);
        spans.push([day, day + 14 * 24 * H]);
      }
      for (const [fromMs, toMs] of spans) {
        const expected = meanTariffPrice(tariff, fromMs, toMs);
        const actual = priceOver(fromMs, toMs);
        assert.ok(
          Math.abs(actual - expected) < 1e-12,
          `${new Date(fromMs).toISOString()}: ${actual} != ${expected}`,
        );
      }
    });
  }

  test("host costs follow the ledger's rules; being off saves a cloud price and an owned host's power", () => {
    const pricing = summaryPricing(
      configSchema.parse({
        team: { timezone: "Europe/Berlin", currency: "EUR" },
        costs: { electricity: { price_per_kwh: 0.3 }, upkeep_pct: 30, lifetime_months: 36 },
        hosts: {
          owned: { purchase_price: 87_660, rated_watts: 2_000 },
          cloud: { cost_per_hour: 4 },
          rented: { cost_per_hour: 2, rented: true },
          free: {},
        },
      }),
    );
    const usage = {
      hourMs: 0,
      fromMs: 0,
      toMs: H,
      gpus: 2,
      busyGpuMinutes: 30,
      idleGpuMinutes: 60,
      unknownGpuMinutes: 30,
      onMinutes: 45,
      energyWh: 800,
    };
    const capital = 87_660 / (36 * ((365.25 * 24) / 12));
    assert.ok(Math.abs(pricing.hostCost("owned", usage)! - (capital * 1.3 + 0.8 * 0.3)) < 1e-12);
    assert.equal(pricing.hostCost("cloud", usage), 3, "billed for the 45 minutes on");
    assert.equal(pricing.hostCost("rented", usage), 2, "billed on or off");
    assert.equal(pricing.hostCost("free", usage), null);
    assert.equal(pricing.offSaving("cloud", 0, 10 * H, null), 40);
    assert.equal(pricing.offSaving("rented", 0, 10 * H, null), 0);
    assert.ok(
      Math.abs(pricing.offSaving("owned", 0, 10 * H, 500)! - 0.5 * 10 * 0.3) < 1e-12,
      "measured power",
    );
    assert.ok(Math.abs(pricing.offSaving("owned", 0, 10 * H, null)! - 2 * 10 * 0.3) < 1e-12, "rated watts");
    assert.equal(pricing.offSaving("free", 0, H, 100), null);
  });
});
