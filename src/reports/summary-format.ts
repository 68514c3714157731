import type { Translator } from "../messages/translator.ts";

/** Number formats shared by the summary's and the reclaim's messages. */

/** `42 %`, `0.4 %` below 1, `—` for unknown. */
export function formatPct(pct: number | null): string {
  if (pct === null) return "—";
  return pct > 0 && pct < 1 ? `${pct.toFixed(1)} %` : `${Math.round(pct)} %`;
}

/** `1,234 h` / `1,234 小时`, `3.5 h` below 10. */
export function hoursIn(tr: Translator, hours: number): string {
  const value = hours < 10 && hours !== Math.round(hours) ? hours.toFixed(1) : tr.number(Math.round(hours));
  return tr.t("summary.hours", { hours: value });
}

/** `▲ 12 pts`, `▼ 3 pts`, `= 0 pts` (percentage points), `new` without a previous value; in the reader's language. */
export function pctChangeIn(tr: Translator, current: number | null, previous: number | null): string {
  if (current === null) return "—";
  if (previous === null) return tr.t("summary.change.new");
  const rounded = Math.round(current - previous);
  if (rounded === 0) return tr.t("summary.change.same");
  return rounded > 0
    ? tr.t("summary.change.up", { points: rounded })
    : tr.t("summary.change.down", { points: -rounded });
}

/** `▲ 12 %` / `▼ 30 %` relative change, `—` when the previous value is 0 or unknown. */
export function formatRelativeChange(current: number, previous: number | null): string {
  if (previous === null || previous === 0) return "—";
  const pct = Math.round(((current - previous) / previous) * 100);
  if (pct === 0) return "= 0 %";
  return `${pct > 0 ? "▲" : "▼"} ${Math.abs(pct)} %`;
}
