import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { formatPct, formatRelativeChange, hoursIn, pctChangeIn } from "../../../reports/summary-format.ts";
import type { SummaryModel } from "../../../reports/summary-model.ts";
import { emphasisBoundaries } from "../emphasis-boundaries.ts";
import type { SummaryMessageFormat } from "./summary-message-format.ts";

const DAY_MS = 86_400_000;

/** The summary's headline figures with their trend: utilisation, idle hours and cost, saved, data. */
export function summaryHeadline(f: SummaryMessageFormat, model: SummaryModel): types.SectionBlock {
  const { tr, pct, hours, money } = f;
  const { fleet, previousFleet } = model;
  const withChange = (value: string, change: string) => tr.t("summary.valueChange", { value, change });
  const unpriced =
    fleet.unpricedGpus > 0 ? ` ${tr.t("summary.unpriced", { count: fleet.unpricedGpus })}` : "";
  const previousOf = (value: number) => (previousFleet.gpus > 0 ? value : null);
  return {
    type: "section",
    fields: [
      field(
        tr.t("summary.field.util"),
        withChange(pct(fleet.utilMeanPct), pctChangeIn(tr, fleet.utilMeanPct, previousFleet.utilMeanPct)),
      ),
      field(
        tr.t("summary.field.idleHours"),
        withChange(
          hours(fleet.idleGpuHours),
          formatRelativeChange(fleet.idleGpuHours, previousOf(previousFleet.idleGpuHours)),
        ),
      ),
      field(
        tr.t("summary.field.idleCost"),
        withChange(
          money(fleet.idleCost),
          formatRelativeChange(fleet.idleCost, previousOf(previousFleet.idleCost)),
        ) + unpriced,
      ),
      ...(fleet.idleSaving == null ? [] : [field(tr.t("summary.field.idleSaving"), money(fleet.idleSaving))]),
      field(
        tr.t("summary.field.saved"),
        model.coverage.readShare === null
          ? tr.t("summary.savedUnpriced", { count: model.stops.length })
          : tr.t("summary.savedValue", { saved: money(model.savedCost), count: model.stops.length }),
      ),
      field(tr.t("summary.field.hostsGpus"), `${fleet.hosts} · ${fleet.gpus}`),
      field(tr.t("summary.field.data"), coverageText(tr, model, f.when)),
    ],
  };
}

/** `all 14 days; readings for 94 % of GPU time, 232 h without (never counted as idle)`. */
function coverageText(tr: Translator, model: SummaryModel, when: (ms: number) => string): string {
  const { period, coverage, fleet } = model;
  const periodDays = Math.round((period.toMs - period.fromMs) / DAY_MS);
  // NOTE: the last hour before the slot is rolled up a few minutes after it: not worth a mention.
  const coveredDays = (coverage.untilMs - coverage.fromMs) / DAY_MS;
  const range = { days: periodDays, from: when(coverage.fromMs), to: when(coverage.untilMs) };
  const span =
    coveredDays >= periodDays - 1.5 / 24
      ? tr.t("summary.coverage.all", { days: periodDays })
      : coveredDays < 1
        ? tr.t("summary.coverage.hours", { ...range, span: tr.duration(coverage.untilMs - coverage.fromMs) })
        : tr.t("summary.coverage.part", { ...range, covered: tr.number(coveredDays, 1) });
  if (coverage.readShare === null) return tr.t("summary.coverage.noGpu", { span });
  return tr.t("summary.coverage.readings", {
    span,
    share: formatPct(100 * coverage.readShare),
    unknown: hoursIn(tr, fleet.unknownGpuHours),
  });
}

function field(label: string, value: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: emphasisBoundaries(`*${label}*\n${value}`) };
}
