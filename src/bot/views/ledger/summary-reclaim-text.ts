import type { SummaryModel } from "../../../reports/summary-model.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { SHORT_BUDGET, type SummaryMessageFormat, summaryRows } from "./summary-message-format.ts";

/** The reclaim list (pending and due hosts), then the hosts not worth renewing. */
export function summaryReclaimText(f: SummaryMessageFormat, model: SummaryModel): string {
  const { tr, pct, date, maxRows, more } = f;
  const reclaimLines = model.reclaim.map(
    (r) =>
      `• ${
        r.state === "pending"
          ? tr.t("summary.reclaim.pending", {
              host: escapeMrkdwn(r.host),
              since: date(r.sinceMs),
              mean: pct(r.windowMeanPct),
              due: date(r.untilMs),
            })
          : tr.t("summary.reclaim.due", { host: escapeMrkdwn(r.host), since: date(r.untilMs) })
      }`,
  );
  const renewLines = model.doNotRenew.map(
    (flag) =>
      `• ${tr.t("summary.renew.line", {
        host: escapeMrkdwn(flag.host),
        current: pct(flag.currentUtilPct),
        previous: pct(flag.previousUtilPct),
      })}`,
  );
  return (
    `*${tr.t("summary.reclaim.title")}*\n${reclaimLines.length === 0 ? tr.t("summary.reclaim.none") : summaryRows(reclaimLines, maxRows, more, SHORT_BUDGET)}\n` +
    `${f.heading(tr.t("summary.renew.title"), tr.t("summary.renew.columns", { pct: pct(model.renewalBelowPct) }))}\n` +
    `${renewLines.length === 0 ? tr.t("summary.renew.none") : summaryRows(renewLines, maxRows, more, SHORT_BUDGET)}`
  );
}
