import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { configSchema } from "../../src/config/schema.ts";
import type { LedgerDay } from "../../src/domain/ledger-day.ts";
import { translator } from "../../src/messages/translator.ts";
import { ledgerCsv } from "../../src/reports/ledger-csv.ts";
import { ledgerTable, reportRangeText } from "../../src/reports/ledger-table.ts";
import { ReportRangeError, readLedgerReport, reportRange } from "../../src/usecases/ledger/ledger-report.ts";
import { completeDays, updateLedger } from "../../src/usecases/ledger/update-ledger.ts";
import { tempDir } from "../store/store-fixtures.ts";
import { down, host, LedgerRig, STEP_MS } from "./ledger-rig.ts";

const EN = translator({ language: "en", timeZone: "UTC", currency: "USD" });

const files = tempDir("gw-ledger-");
after(() => files.remove());

/**
 * Berlin, 24 and 25 October 2026 (the second is 25 hours long: summer time ends):
 * - gpu-a, owned: 8,766 over 12 months = 1.00/h, upkeep 30 % = 0.30/h; GPU 0 busy, GPU 1 idle,
 *   100 W each (0.2 kWh/h) at 0.10 from 22:00 to 06:00 and 0.30 otherwise;
 * - gpu-b, cloud at 10.00/h while on; one idle GPU without power readings; down from 01:00 to 07:00
 *   on the 24th;
 * - gpu-c, no price; one busy GPU at 200 W.
 */
const CONFIG = {
  team: { timezone: "Europe/Berlin", currency: "EUR" },
  costs: {
    electricity: {
      price_per_kwh: 0.3,
      windows: [{ name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.1 }],
    },
  },
  hosts: {
    "gpu-a": { purchase_price: 8766, lifetime_months: 12 },
    "gpu-b": { cost_per_hour: 10 },
  },
};
const FROM_MS = Date.UTC(2026, 9, 23, 22);
const TO_MS = Date.UTC(2026, 9, 25, 23);
const GPU_B_DOWN = [Date.UTC(2026, 9, 23, 23), Date.UTC(2026, 9, 24, 5)] as const;

function rig(): LedgerRig {
  const r = new LedgerRig(files.file(`ledger-${Math.random()}.db`), CONFIG, Date.UTC(2026, 9, 26, 0, 30));
  // The last cycle (22:40 UTC) stands for 20 minutes at most: up to the end of the 25th.
  r.write(FROM_MS, TO_MS - STEP_MS, (atMs) => [
    host("gpu-a", atMs, [80, 0]),
    atMs >= GPU_B_DOWN[0] && atMs < GPU_B_DOWN[1] ? down("gpu-b", atMs) : host("gpu-b", atMs, [0], null),
    host("gpu-c", atMs, [50], 200),
  ]);
  return r;
}

/** The numbers of a row, rounded to 6 decimals. */
function numbers(row: LedgerDay | undefined) {
  assert.ok(row);
  const r = (n: number | null) => (n === null ? null : Math.round(n * 1e6) / 1e6);
  return {
    hours: row.hours,
    onHours: r(row.onHours),
    gpus: row.gpus,
    busy: r(row.busyGpuHours),
    idle: r(row.idleGpuHours),
    unknown: r(row.unknownGpuHours),
    kWh: r(row.energyKWh),
    cost: r(row.cost),
    idleCost: r(row.idleCost),
  };
}

describe("the daily ledger", () => {
  it("computes each complete local day per host from the rollups, DST day included", () => {
    const r = rig();
    assert.deepEqual(completeDays(r.deps), { first: "2026-10-24", last: "2026-10-25" });
    assert.deepEqual(updateLedger(r.deps), { computed: ["2026-10-24", "2026-10-25"], complete: true });
    const rows = r.ledger.between("2026-10-24", "2026-10-25");
    const row = (day: string, name: string) => rows.find((x) => x.day === day && x.host === name);
    assert.deepEqual(numbers(row("2026-10-24", "gpu-a")), {
      hours: 24,
      onHours: 24,
      gpus: 2,
      busy: 24,
      idle: 24,
      unknown: 0,
      kWh: 4.8,
      cost: 24 * 1.3 + 8 * 0.2 * 0.1 + 16 * 0.2 * 0.3,
      idleCost: (24 * 1.3 + 8 * 0.2 * 0.1 + 16 * 0.2 * 0.3) / 2,
    });
    assert.deepEqual(numbers(row("2026-10-25", "gpu-a")), {
      hours: 25,
      onHours: 25,
      gpus: 2,
      busy: 25,
      idle: 25,
      unknown: 0,
      kWh: 5,
      cost: 25 * 1.3 + 9 * 0.2 * 0.1 + 16 * 0.2 * 0.3,
      idleCost: (25 * 1.3 + 9 * 0.2 * 0.1 + 16 * 0.2 * 0.3) / 2,
    });
    assert.deepEqual(numbers(row("2026-10-24", "gpu-b")), {
      hours: 24,
      onHours: 18,
      gpus: 1,
      busy: 0,
      idle: 18,
      unknown: 6,
      kWh: null,
      cost: 180,
      idleCost: 180,
    });
    assert.deepEqual(numbers(row("2026-10-24", "gpu-c")), {
      hours: 24,
      onHours: 24,
      gpus: 1,
      busy: 24,
      idle: 0,
      unknown: 0,
      kWh: 4.8,
      cost: null,
      idleCost: null,
    });
    r.close();
  });

  it("is idempotent, recomputes the recent days on request and every day whose prices changed", () => {
    const r = rig();
    updateLedger(r.deps);
    const before = r.ledger.between("2026-10-24", "2026-10-25");
    assert.deepEqual(updateLedger(r.deps), { computed: [], complete: true });
    assert.deepEqual(updateLedger(r.deps, { recentDays: 1 }).computed, ["2026-10-25"]);
    assert.deepEqual(
      r.ledger.between("2026-10-24", "2026-10-25").map((x) => ({ ...x, computedAtMs: 0 })),
      before.map((x) => ({ ...x, computedAtMs: 0 })),
    );
    r.config = configSchema.parse({
      ...CONFIG,
      hosts: { ...CONFIG.hosts, "gpu-a": { purchase_price: 17_532, lifetime_months: 12 } },
    });
    assert.deepEqual(updateLedger(r.deps, { maxDays: 1 }), { computed: ["2026-10-24"], complete: false });
    assert.deepEqual(updateLedger(r.deps), { computed: ["2026-10-25"], complete: true });
    const day1 = r.ledger.between("2026-10-24", "2026-10-24").find((x) => x.host === "gpu-a");
    assert.equal(numbers(day1).cost, Math.round((24 * 2.6 + 1.12) * 1e6) / 1e6);
    r.close();
  });

  it("a day the bot was down still writes off owned hardware; unknown is never idle", () => {
    const r = rig();
    r.clock.set(Date.UTC(2026, 9, 27, 0, 30));
    r.write(0, 0, () => []);
    updateLedger(r.deps);
    const rows = r.ledger.between("2026-10-26", "2026-10-26");
    assert.deepEqual(
      rows.map((x) => [
        x.host,
        x.hours,
        x.unknownGpuHours,
        x.idleGpuHours,
        x.energyKWh,
        round(x.cost),
        x.idleCost,
      ]),
      [
        ["gpu-a", 24, 48, 0, null, 31.2, 0],
        ["gpu-b", 24, 24, 0, null, 0, 0],
        ["gpu-c", 24, 24, 0, null, null, null],
      ],
    );
    r.close();
  });

  it("reports per host, in total and per month with the real usage rate, as a table and as CSV", () => {
    const r = rig();
    const report = readLedgerReport(r.deps, { fromDay: "2026-10-20", toDay: "2026-10-31" });
    assert.equal(report.fromDay, "2026-10-24");
    assert.equal(report.toDay, "2026-10-25");
    assert.deepEqual(
      report.hosts.map((h) => [
        h.host,
        h.days,
        round(h.busyGpuHours),
        round(h.idleGpuHours),
        round(h.idleCost),
      ]),
      [
        ["gpu-b", 2, 0, 43, 430],
        ["gpu-a", 2, 49, 49, round((32.32 + 33.64) / 2)],
        ["gpu-c", 2, 49, 0, null],
      ],
    );
    assert.equal(round(report.total.cost), round(65.96 + 430));
    assert.equal(report.total.unpricedDays, 2);
    assert.deepEqual(
      report.months.map((m) => [
        m.month,
        round(m.busyGpuHours),
        round(m.busyGpuHours + m.idleGpuHours),
        round(m.usageRate),
      ]),
      [["2026-10", 98, 190, round(98 / 190)]],
    );
    assert.equal(
      ledgerTable(EN, report),
      [
        "cost ledger 2026-10-24 … 2026-10-25 (Europe/Berlin), EUR",
        "host   days  hours on  busy GPU-h  idle GPU-h  unknown GPU-h  usage  energy kWh  cost EUR  idle cost EUR",
        "gpu-b     2      43.0         0.0        43.0            6.0    0 %           —    430.00         430.00",
        "gpu-a     2      49.0        49.0        49.0            0.0   50 %         9.8     65.96          32.98",
        "gpu-c     2      49.0        49.0         0.0            0.0  100 %         9.8         —              —",
        "total     6     141.0        98.0        92.0            6.0   52 %        19.6    495.96         462.98",
        "",
        "monthly real usage rate (busy GPU-hours / GPU-hours on):",
        "  2026-10   52 %  (98.0 of 190.0 GPU-hours on)",
        "",
        "— no price: set cost_per_hour or purchase_price under hosts.<name> (2 host-days)",
        "",
        "the ledger ends 2026-10-25: later days are not complete yet",
        "",
      ].join("\n"),
    );
    const csv = ledgerCsv(EN, report).split("\r\n");
    assert.deepEqual(csv.slice(0, 3), [
      "day,host,hours,on_hours,gpus,busy_gpu_hours,idle_gpu_hours,unknown_gpu_hours,usage_rate,energy_kwh,cost,idle_cost,capital,upkeep,energy_cost,rent,currency",
      "2026-10-24,gpu-a,24.000,24.000,2,24.000,24.000,0.000,0.5000,4.800,32.32,16.16,24.00,7.20,1.12,0.00,EUR",
      "2026-10-24,gpu-b,24.000,18.000,1,0.000,18.000,6.000,0.0000,,180.00,180.00,0.00,0.00,0.00,180.00,EUR",
    ]);
    assert.equal(csv.length, 1 + 6 + 1);
    r.close();
  });

  it("a range with no ledger day (before the ledger starts) is empty, never backwards, and says where the ledger is", () => {
    const r = rig();
    const report = readLedgerReport(r.deps, { fromDay: "2026-10-01", toDay: "2026-10-10" });
    assert.equal(report.fromDay, null);
    assert.equal(report.toDay, null);
    assert.deepEqual(report.rows, []);
    assert.equal(
      ledgerTable(EN, report),
      "no ledger day in 2026-10-01 … 2026-10-10 (Europe/Berlin): the ledger has 2026-10-24 … 2026-10-25\n",
    );
    r.close();
  });

  it("before the first complete day, the table says how much history there is", () => {
    const none = { days: 0, onHours: 0, busyGpuHours: 0, idleGpuHours: 0, unknownGpuHours: 0 };
    const totals = {
      ...none,
      usageRate: null,
      energyKWh: null,
      cost: null,
      idleCost: null,
      idleSaving: null,
      unpricedDays: 0,
    };
    const text = ledgerTable(EN, {
      fromDay: null,
      toDay: null,
      requested: { fromDay: "2026-10-20", toDay: "2026-10-25" },
      ledger: null,
      readings: { fromMs: Date.UTC(2026, 9, 26, 7), toMs: Date.UTC(2026, 9, 26, 10, 10) },
      timezone: "UTC",
      currency: "USD",
      hosts: [],
      months: [],
      total: totals,
      rows: [],
    });
    assert.equal(
      text,
      "no complete day in the ledger for 2026-10-20 … 2026-10-25 (UTC) yet (3 h 10 min of readings since Mon, Oct 26, 07:00): a day is in the ledger once it is over\n",
    );
  });

  it("checks the dates typed, saying what to type instead", () => {
    assert.deepEqual(reportRange("2026-10-01", undefined, "2026-10-26"), {
      fromDay: "2026-10-01",
      toDay: "2026-10-25",
    });
    const problem = (since: string, until?: string) => {
      try {
        reportRange(since, until, "2026-10-26");
      } catch (error) {
        assert.ok(error instanceof ReportRangeError);
        return reportRangeText(EN, error.problem);
      }
      return "no error";
    };
    assert.equal(problem("2026-13-01"), "--since 2026-13-01 is not a date: use YYYY-MM-DD, e.g. 2026-01-31");
    assert.equal(problem("2026-02-30"), "--since 2026-02-30 is not a date: use YYYY-MM-DD, e.g. 2026-01-31");
    assert.equal(
      problem("2026-10-01", "yesterday"),
      "--until yesterday is not a date: use YYYY-MM-DD, e.g. 2026-01-31",
    );
    assert.equal(problem("2026-10-10", "2026-10-09"), "--until 2026-10-09 is before --since 2026-10-10");
    assert.equal(
      problem("2026-10-26"),
      "--since 2026-10-26 is not a complete day yet: the ledger ends yesterday",
    );
    assert.equal(problem("2024-01-01", "2026-01-01"), "2024-01-01 to 2026-01-01 is longer than 400 days");
  });
});

function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1e6) / 1e6;
}
