import type { GpuHourRollup } from "../domain/metrics.ts";
import type { HourChunk, HourRows } from "../store/summary-store.ts";

export type { HourChunk, HourRows };

/** Column-wise rows from `GpuHourRollup` objects (as `rollupsBetween` returns them), same order. */
export function hourRowsOf(rollups: readonly GpuHourRollup[]): HourRows {
  const gpus: { host: string; index: number }[] = [];
  const ids = new Map<string, number>();
  const hours: HourChunk[] = [];
  for (let start = 0; start < rollups.length; ) {
    const hourMs = rollups[start]!.hourMs;
    let end = start + 1;
    while (end < rollups.length && rollups[end]!.hourMs === hourMs) end++;
    const chunk = emptyChunk(hourMs, end - start);
    for (let i = start; i < end; i++) {
      const row = rollups[i]!;
      const key = `${row.host}\u0000${row.index}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = gpus.length;
        gpus.push({ host: row.host, index: row.index });
        ids.set(key, id);
      }
      const k = i - start;
      chunk.gpu[k] = id;
      chunk.utilMeanPct[k] = row.utilMeanPct ?? Number.NaN;
      chunk.busyMinutes[k] = row.busyMinutes;
      chunk.idleMinutes[k] = row.idleMinutes;
      chunk.energyWh[k] = row.energyWh ?? Number.NaN;
    }
    hours.push(chunk);
    start = end;
  }
  return { length: rollups.length, gpus, hours };
}

/** Zeroed columns for `length` rows of one hour (the caller fills them). */
function emptyChunk(hourMs: number, length: number): HourChunk {
  return {
    hourMs,
    gpu: new Int32Array(length),
    utilMeanPct: new Float64Array(length),
    busyMinutes: new Float64Array(length),
    idleMinutes: new Float64Array(length),
    energyWh: new Float64Array(length),
  };
}
