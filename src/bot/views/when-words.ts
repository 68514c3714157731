import type { Translator } from "../../messages/translator.ts";
import { localDayNumber } from "../../shared/time.ts";

/**
 * An instant as the reader says it in the team's zone, relative to now: `14:02`, `tomorrow 09:00`,
 * `yesterday 17:30`, else `Thu, Jan 7 09:00`.
 */
export function whenWords(tr: Translator, ms: number, nowMs: number): string {
  const dayOffset = localDayNumber(ms, tr.timeZone) - localDayNumber(nowMs, tr.timeZone);
  if (dayOffset === 0) return tr.date(ms, "time");
  if (dayOffset === 1) return tr.t("status.when.tomorrow", { at: ms });
  if (dayOffset === -1) return tr.t("status.when.yesterday", { at: ms });
  return tr.t("status.when.other", { at: ms });
}
