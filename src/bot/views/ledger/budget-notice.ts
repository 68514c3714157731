import type { Translator } from "../../../messages/translator.ts";
import { percent } from "../../../reports/ledger-table.ts";
import type { BudgetNotice } from "../../../usecases/ledger/check-budgets.ts";
import { mention } from "../../../usecases/power/action-text.ts";

/** The DM when a project's month reaches 80 % or 100 % of its budget: what burns the money. */
export function budgetNoticeText(tr: Translator, notice: BudgetNotice): { text: string } {
  const none = tr.t("money.budget.none");
  const hosts = notice.hosts.map((h) => `${h.host} (${h.gpuHours.toFixed(1)})`).join(", ") || none;
  const people = notice.people.map((p) => `${mention(p.user)} (${p.gpuHours.toFixed(1)})`).join(", ") || none;
  const text = [
    tr.t(notice.level >= 100 ? "money.budget.reached" : "money.budget.near", {
      project: notice.project,
      month: notice.month,
      spent: tr.money(notice.spent),
      budget: tr.money(notice.budget),
      level: notice.level,
    }),
    tr.t("money.budget.burning", { hosts, people, idle: percent(notice.idleShare) }),
  ].join("\n");
  return { text };
}
