import { PLAN_SHORT_MONTHS, PLAN_SHORT_RATIO } from "../../../checks/plan-tracking.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { TrackedPlan } from "../../../usecases/procurement/track-plans.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { section } from "../reply-message.ts";

/** The summary's section of approved plans below half their GPU-hours for two months, their latest months. */
export function planSummaryBlocks(tr: Translator, flagged: readonly TrackedPlan[]): unknown[] {
  const title = tr.t("procurement.summary.title", {
    pct: tr.t("common.pct", { ratio: PLAN_SHORT_RATIO }),
    months: PLAN_SHORT_MONTHS,
  });
  const lines = flagged.slice(0, 20).map(({ request, tracking }) =>
    tr.t("procurement.summary.line", {
      id: request.id,
      count: request.count,
      model: escapeMrkdwn(request.model),
      project: request.project === null ? tr.t("project.none") : escapeMrkdwn(request.project),
      months: tracking.months
        .slice(-PLAN_SHORT_MONTHS)
        .map((m) =>
          tr.t("procurement.summary.month", {
            month: m.month,
            actual: Math.round(m.actualGpuHours),
            planned: Math.round(m.plannedGpuHours),
          }),
        )
        .reduce((first, second) => tr.t("procurement.list", { first, second })),
    }),
  );
  return [section([title, ...lines].join("\n"))];
}
