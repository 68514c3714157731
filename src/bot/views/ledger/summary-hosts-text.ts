import { pctChangeIn } from "../../../reports/summary-format.ts";
import type { SummaryModel } from "../../../reports/summary-model.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { type SummaryMessageFormat, summaryRows } from "./summary-message-format.ts";

/** The hosts list: utilisation with its trend, idle hours and idle cost, most idle cost first. */
export function summaryHostsText(f: SummaryMessageFormat, model: SummaryModel): string {
  const { tr, pct, hours } = f;
  const lines = model.hosts.map(
    (h) =>
      `• ${tr.t("summary.hosts.line", {
        host: `*${escapeMrkdwn(h.host)}*`,
        util: pct(h.utilMeanPct),
        change: pctChangeIn(tr, h.utilMeanPct, h.previousUtilMeanPct),
        hours: hours(h.idleGpuHours),
        cost: f.moneyOrUnknown(h.idleCost),
      })}`,
  );
  return `${f.heading(tr.t("summary.hosts.title"), tr.t("summary.hosts.columns"))}\n${summaryRows(lines, f.maxRows, f.more)}`;
}
