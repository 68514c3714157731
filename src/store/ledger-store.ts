import type { Database } from "better-sqlite3";
import type { LedgerDay } from "../domain/ledger-day.ts";

export interface LedgerStore {
  /** Replaces every row of `day` with `rows`, in one transaction. */
  replaceDay(day: string, rows: readonly LedgerDay[]): void;
  /** Rows with `fromDay <= day <= toDay`, by day then host. */
  between(fromDay: string, toDay: string): LedgerDay[];
  /** `day`, `host` and `basis` of the rows in the range, for staleness checks (cheap). */
  bases(fromDay: string, toDay: string): { day: string; host: string; basis: string }[];
  /** The latest day with rows; `null` when the ledger is empty. */
  lastDay(): string | null;
}

interface LedgerRow {
  day: string;
  host: string;
  hours: number;
  on_hours: number;
  gpus: number;
  busy_gpu_h: number;
  idle_gpu_h: number;
  unknown_gpu_h: number;
  energy_kwh: number | null;
  cost: number | null;
  idle_cost: number | null;
  idle_saving: number | null;
  capital: number;
  upkeep: number;
  energy_cost: number;
  rent: number;
  basis: string;
  computed_ms: number;
}

export function createLedgerStore(db: Database): LedgerStore {
  const deleteDay = db.prepare("DELETE FROM ledger_day WHERE day = ?");
  const insert = db.prepare(
    `INSERT INTO ledger_day (day, host, hours, on_hours, gpus, busy_gpu_h, idle_gpu_h, unknown_gpu_h,
       energy_kwh, cost, idle_cost, idle_saving, capital, upkeep, energy_cost, rent, basis, computed_ms)
     VALUES (@day, @host, @hours, @onHours, @gpus, @busyGpuHours, @idleGpuHours, @unknownGpuHours,
       @energyKWh, @cost, @idleCost, @idleSaving, @capital, @upkeep, @energyCost, @rent, @basis, @computedAtMs)`,
  );
  const selectBetween = db.prepare("SELECT * FROM ledger_day WHERE day BETWEEN ? AND ? ORDER BY day, host");
  const selectBases = db.prepare("SELECT day, host, basis FROM ledger_day WHERE day BETWEEN ? AND ?");
  const selectLastDay = db.prepare("SELECT max(day) FROM ledger_day").pluck();
  const replace = db.transaction((day: string, rows: readonly LedgerDay[]) => {
    deleteDay.run(day);
    for (const row of rows) insert.run({ ...row, idleSaving: row.idleSaving ?? null });
  });
  return {
    replaceDay: (day, rows) => replace.immediate(day, rows),
    between: (fromDay, toDay) =>
      (selectBetween.all(fromDay, toDay) as LedgerRow[]).map((row) => ({
        day: row.day,
        host: row.host,
        hours: row.hours,
        onHours: row.on_hours,
        gpus: row.gpus,
        busyGpuHours: row.busy_gpu_h,
        idleGpuHours: row.idle_gpu_h,
        unknownGpuHours: row.unknown_gpu_h,
        energyKWh: row.energy_kwh,
        cost: row.cost,
        idleCost: row.idle_cost,
        idleSaving: row.idle_saving,
        capital: row.capital,
        upkeep: row.upkeep,
        energyCost: row.energy_cost,
        rent: row.rent,
        basis: row.basis,
        computedAtMs: row.computed_ms,
      })),
    bases: (fromDay, toDay) =>
      selectBases.all(fromDay, toDay) as { day: string; host: string; basis: string }[],
    lastDay: () => (selectLastDay.get() as string | null) ?? null,
  };
}
