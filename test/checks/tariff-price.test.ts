import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { localDayBounds } from "../../src/checks/local-day.ts";
import {
  meanTariffPrice,
  priceAtMinute,
  type Tariff,
  tariffAt,
  tariffOf,
  tariffSplit,
} from "../../src/checks/tariff-price.ts";

const HOUR_MS = 3_600_000;

/** Peak 0.30 €/kWh; valley 0.10 from 22:00 to 06:00 (crossing midnight). */
function nightValley(zone: string): Tariff {
  return tariffOf(
    { price_per_kwh: 0.3, windows: [{ name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.1 }] },
    zone,
  );
}

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

describe("tariff windows", () => {
  it("a flat tariff has one price at every instant", () => {
    const flat = tariffOf({ price_per_kwh: 0.25, windows: [] }, "Europe/Berlin");
    assert.deepEqual(tariffAt(flat, Date.UTC(2026, 0, 5, 3)), { window: null, pricePerKWh: 0.25 });
    close(meanTariffPrice(flat, Date.UTC(2026, 0, 5), Date.UTC(2026, 0, 6)), 0.25);
  });

  it("a window crossing midnight holds the minutes on both sides of it, `to` excluded", () => {
    const tariff = nightValley("UTC");
    assert.equal(priceAtMinute(tariff, 21 * 60 + 59).pricePerKWh, 0.3);
    assert.equal(priceAtMinute(tariff, 22 * 60).pricePerKWh, 0.1);
    assert.equal(priceAtMinute(tariff, 23 * 60 + 30).window, "valley");
    assert.equal(priceAtMinute(tariff, 0).pricePerKWh, 0.1);
    assert.equal(priceAtMinute(tariff, 5 * 60 + 59).pricePerKWh, 0.1);
    assert.deepEqual(priceAtMinute(tariff, 6 * 60), { window: null, pricePerKWh: 0.3 });
  });

  it("is read on the team's wall clock: 23:30 UTC is already valley at 00:30 in Berlin in winter", () => {
    const berlin = nightValley("Europe/Berlin");
    assert.equal(tariffAt(berlin, Date.UTC(2026, 0, 5, 20, 30)).pricePerKWh, 0.3);
    assert.equal(tariffAt(berlin, Date.UTC(2026, 0, 5, 21, 0)).pricePerKWh, 0.1);
    assert.equal(tariffAt(berlin, Date.UTC(2026, 0, 6, 4, 59)).pricePerKWh, 0.1);
    assert.equal(tariffAt(berlin, Date.UTC(2026, 0, 6, 5, 0)).pricePerKWh, 0.3);
    // Summer time: valley ends at 06:00 CEST = 04:00 UTC.
    assert.equal(tariffAt(berlin, Date.UTC(2026, 6, 6, 3, 59)).pricePerKWh, 0.1);
    assert.equal(tariffAt(berlin, Date.UTC(2026, 6, 6, 4, 0)).pricePerKWh, 0.3);
  });

  it("weights a local day: 8 valley hours of 24, 7 of 23 on the spring-forward day, 9 of 25 in autumn", () => {
    const berlin = nightValley("Europe/Berlin");
    const mean = (day: string) => {
      const { startMs, endMs } = localDayBounds(day, "Europe/Berlin");
      return { hours: (endMs - startMs) / HOUR_MS, price: meanTariffPrice(berlin, startMs, endMs) };
    };
    const normal = mean("2026-01-05");
    assert.equal(normal.hours, 24);
    close(normal.price, (8 * 0.1 + 16 * 0.3) / 24);
    const spring = mean("2026-03-29");
    assert.equal(spring.hours, 23);
    close(spring.price, (7 * 0.1 + 16 * 0.3) / 23);
    const autumn = mean("2026-10-25");
    assert.equal(autumn.hours, 25);
    close(autumn.price, (9 * 0.1 + 16 * 0.3) / 25);

    const { startMs, endMs } = localDayBounds("2026-10-25", "Europe/Berlin");
    const split = tariffSplit(berlin, startMs, endMs);
    assert.deepEqual(
      [...split].map(([name, ms]) => [name, ms / HOUR_MS]),
      [
        ["valley", 9],
        ["", 16],
      ],
    );
  });

  it("prices partial hours where a window edge falls inside a UTC hour (India, +05:30)", () => {
    const kolkata = nightValley("Asia/Kolkata");
    // 16:00–17:00 UTC = 21:30–22:30 IST: half base, half valley.
    close(meanTariffPrice(kolkata, Date.UTC(2026, 0, 5, 16), Date.UTC(2026, 0, 5, 17)), 0.2);
    // 00:00–01:00 UTC = 05:30–06:30 IST.
    close(meanTariffPrice(kolkata, Date.UTC(2026, 0, 6, 0), Date.UTC(2026, 0, 6, 1)), 0.2);
    // A quarter hour inside the valley only.
    close(meanTariffPrice(kolkata, Date.UTC(2026, 0, 5, 16, 30), Date.UTC(2026, 0, 5, 16, 45)), 0.1);
  });

  it("the first listed window wins where windows overlap", () => {
    const tariff = tariffOf(
      {
        price_per_kwh: 0.3,
        windows: [
          { name: "weekend-ish", from: "12:00", to: "14:00", price_per_kwh: 0.05 },
          { name: "valley", from: "10:00", to: "16:00", price_per_kwh: 0.1 },
        ],
      },
      "UTC",
    );
    assert.equal(priceAtMinute(tariff, 11 * 60).pricePerKWh, 0.1);
    assert.equal(priceAtMinute(tariff, 13 * 60).pricePerKWh, 0.05);
    assert.equal(priceAtMinute(tariff, 15 * 60).window, "valley");
    close(
      meanTariffPrice(tariff, Date.UTC(2026, 0, 5, 10), Date.UTC(2026, 0, 5, 16)),
      (4 * 0.1 + 2 * 0.05) / 6,
    );
  });
});
