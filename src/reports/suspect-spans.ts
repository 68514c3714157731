import type { Period } from "./summary-model.ts";

/** An audit entry as this module reads it. */
export interface SuspectAuditEntry {
  atMs: number;
  action: string;
  host: string | null;
  detail: Record<string, unknown>;
}

/** One GPU's time with implausible readings (see `checks/suspect-reading.ts`) within a period. */
export interface SuspectSpan {
  host: string;
  gpu: number;
  /** Hours of the period the GPU spent suspect; the rollups count them busy (utilisation 100 %). */
  hours: number;
  /** Still suspect at the end of the period. */
  ongoing: boolean;
}

/**
 * The suspect spans within `period` from the audit of suspect episodes (`suspect-reading` at their
 * start, `suspect-ended` at their end, oldest first), largest first. Pure.
 */
export function suspectSpans(
  entries: readonly SuspectAuditEntry[],
  period: Period,
  startAction: string,
  endAction: string,
): SuspectSpan[] {
  const open = new Map<string, number>();
  const hours = new Map<string, number>();
  const add = (key: string, fromMs: number, toMs: number) => {
    const overlap = Math.min(toMs, period.toMs) - Math.max(fromMs, period.fromMs);
    if (overlap > 0) hours.set(key, (hours.get(key) ?? 0) + overlap / 3_600_000);
    else if (!hours.has(key) && toMs >= period.fromMs && fromMs < period.toMs) hours.set(key, 0);
  };
  for (const entry of entries) {
    const gpu = entry.detail.gpu;
    if (entry.host === null || typeof gpu !== "number") continue;
    const key = `${entry.host}\u0000${gpu}`;
    if (entry.action === startAction) {
      if (!open.has(key)) open.set(key, entry.atMs);
    } else if (entry.action === endAction) {
      const fromMs = open.get(key);
      if (fromMs !== undefined) add(key, fromMs, entry.atMs);
      open.delete(key);
    }
  }
  for (const [key, fromMs] of open) add(key, fromMs, period.toMs);
  return [...hours]
    .map(([key, total]) => {
      const [host = "", gpu = "0"] = key.split("\u0000");
      return { host, gpu: Number(gpu), hours: total, ongoing: open.has(key) };
    })
    .sort((a, b) => b.hours - a.hours || a.host.localeCompare(b.host) || a.gpu - b.gpu);
}
