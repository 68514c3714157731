import type { Database } from "better-sqlite3";
import type { WorkloadHour } from "../domain/workload-hour.ts";

/** The workload on each busy GPU per clock hour (the first seen in the hour is kept). */
export interface WorkloadStore {
  record(hours: readonly WorkloadHour[]): void;
  /** Hours with `fromMs <= hourMs < toMs`. */
  between(fromMs: number, toMs: number): WorkloadHour[];
}

interface WorkloadRow {
  hour_ms: number;
  host: string;
  gpu_index: number;
  namespace: string | null;
  label: string | null;
  login: string | null;
}

export function createWorkloadStore(db: Database): WorkloadStore {
  const insert = db.prepare(
    `INSERT INTO gpu_workload_hour (hour_ms, host, gpu_index, namespace, label, login)
     VALUES (@hourMs, @host, @gpuIndex, @namespace, @label, @login) ON CONFLICT DO NOTHING`,
  );
  const select = db.prepare("SELECT * FROM gpu_workload_hour WHERE hour_ms >= ? AND hour_ms < ?");
  const recordAll = db.transaction((hours: readonly WorkloadHour[]) => {
    for (const hour of hours) insert.run(hour);
  });
  // NOTE: every poll reports every busy GPU again; the latest hour's rows already written are
  // remembered, so only a GPU's first workload of the hour goes to SQLite.
  let latestHourMs = Number.NEGATIVE_INFINITY;
  const written = new Set<string>();
  const keyOf = (hour: WorkloadHour) => `${hour.host}\n${hour.gpuIndex}`;
  return {
    record: (hours) => {
      const fresh = hours.filter((hour) => hour.hourMs !== latestHourMs || !written.has(keyOf(hour)));
      if (fresh.length === 0) return;
      recordAll.immediate(fresh);
      for (const hour of fresh) {
        if (hour.hourMs > latestHourMs) {
          latestHourMs = hour.hourMs;
          written.clear();
        }
        if (hour.hourMs === latestHourMs) written.add(keyOf(hour));
      }
    },
    between: (fromMs, toMs) =>
      (select.all(fromMs, toMs) as WorkloadRow[]).map((row) => ({
        hourMs: row.hour_ms,
        host: row.host,
        gpuIndex: row.gpu_index,
        namespace: row.namespace,
        label: row.label,
        login: row.login,
      })),
  };
}
