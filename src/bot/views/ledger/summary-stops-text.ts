import type { SummaryModel } from "../../../reports/summary-model.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { type SummaryMessageFormat, summaryRows } from "./summary-message-format.ts";

/** The stops list (who, when, next use, hours off, saved) and one line for the snoozes. */
export function summaryStopsText(f: SummaryMessageFormat, model: SummaryModel): string {
  const { tr, hours, when } = f;
  const lines = model.stops.map(
    (s) =>
      `• ${tr.t(s.forced ? "summary.stop.lineForced" : "summary.stop.line", {
        host: escapeMrkdwn(s.host),
        person: f.person(s.actor),
        at: when(s.atMs),
        next:
          s.nextUseMs === null
            ? tr.t("summary.stop.notUsed")
            : tr.t("summary.stop.nextUsed", { at: when(s.nextUseMs) }),
        hours: hours(s.offHours),
        saved: f.moneyOrUnknown(s.savedCost),
      })}`,
  );
  const keptHours = model.keeps.reduce((sum, k) => sum + k.keptHours, 0);
  const keepLine =
    model.keeps.length === 0
      ? tr.t("summary.keeps.none")
      : tr.t("summary.keeps.some", { count: model.keeps.length, hours: hours(keptHours) });
  return `*${tr.t("summary.stops.title")}*\n${lines.length === 0 ? tr.t("summary.stops.none") : summaryRows(lines, f.maxRows, f.more)}\n${keepLine}`;
}
