import { type BudgetDeps, type BudgetNotice, checkBudgets } from "../usecases/ledger/check-budgets.ts";
import type { CronJob } from "./schedule-jobs.ts";

/**
 * Project budgets, hourly after the ledger (and at start): 80 % and 100 % of a project's monthly
 * budget are told once each (see {@link checkBudgets}).
 */
export function budgetJob(
  deps: BudgetDeps,
  words: (notice: BudgetNotice, user: string) => { text: string; blocks?: unknown[] },
): CronJob {
  return {
    name: "budgets",
    schedule: "0 25 * * * *",
    timezone: "UTC",
    runAtStart: true,
    run: () => checkBudgets(deps, words),
  };
}
