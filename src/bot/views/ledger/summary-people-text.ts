import type { SummaryModel } from "../../../reports/summary-model.ts";
import { type SummaryMessageFormat, summaryRows } from "./summary-message-format.ts";

/** The people list: GPU-hours claimed against busy, idle cost, stops and snoozes per person. */
export function summaryPeopleText(f: SummaryMessageFormat, model: SummaryModel): string {
  const { tr, pct, hours, money } = f;
  const lines = model.people.map((p) => {
    const common = {
      claimed: hours(p.claimedGpuHours),
      busy: hours(p.busyGpuHours),
      cost: f.moneyOrUnknown(p.idleCost),
    };
    const claims =
      p.claims === 0
        ? tr.t("summary.person.noClaims")
        : p.claimedGpuHours > 0
          ? tr.t("summary.person.claimsShare", {
              ...common,
              share: pct((100 * p.busyGpuHours) / p.claimedGpuHours),
            })
          : tr.t("summary.person.claims", common);
    const acts = [
      p.stops > 0 ? tr.t("summary.person.stops", { count: p.stops, saved: money(p.savedCost) }) : null,
      p.keeps > 0 ? tr.t("summary.person.keeps", { count: p.keeps }) : null,
    ].filter((part) => part !== null);
    return `• ${
      acts.length > 0
        ? tr.t("summary.person.lineActs", {
            person: f.person(p.user),
            claims,
            acts: acts.join(tr.t("claim.list.separator")),
          })
        : tr.t("summary.person.line", { person: f.person(p.user), claims })
    }`;
  });
  return `${f.heading(tr.t("summary.people.title"), tr.t("summary.people.columns"))}\n${summaryRows(lines, f.maxRows, f.more)}`;
}
