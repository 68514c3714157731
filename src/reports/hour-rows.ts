import type { GpuHourRollup } from "../domain/metrics.ts";
import type { HourRows } from "../store/summary-store.ts";

export type { HourRows };

/** Column-wise rows from `GpuHourRollup` objects (as `rollupsBetween` returns them), same order. */
export function hourRowsOf(rollups: readonly GpuHourRollup[]): HourRows {
  const gpus: { host: string; index: number }[] = [];
  const ids = new Map<string, number>();
  const rows = emptyHourRows(rollups.length);
  rollups.forEach((row, i) => {
    const key = `${row.host}\u0000${row.index}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = gpus.length;
      gpus.push({ host: row.host, index: row.index });
      ids.set(key, id);
    }
    rows.gpu[i] = id;
    rows.hourMs[i] = row.hourMs;
    rows.utilMeanPct[i] = row.utilMeanPct ?? Number.NaN;
    rows.busyMinutes[i] = row.busyMinutes;
    rows.idleMinutes[i] = row.idleMinutes;
    rows.energyWh[i] = row.energyWh ?? Number.NaN;
  });
  return { ...rows, gpus };
}

/** Zeroed columns for `length` rows (the caller fills them and sets `gpus`). */
function emptyHourRows(length: number): Omit<HourRows, "gpus"> {
  return {
    length,
    gpu: new Int32Array(length),
    hourMs: new Float64Array(length),
    utilMeanPct: new Float64Array(length),
    busyMinutes: new Float64Array(length),
    idleMinutes: new Float64Array(length),
    energyWh: new Float64Array(length),
  };
}
