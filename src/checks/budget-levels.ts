/** The budget levels that are told, in % of a project's monthly budget. */
export const BUDGET_LEVELS = [80, 100] as const;
export type BudgetLevel = (typeof BUDGET_LEVELS)[number];

/** The levels `spent` has reached of `budget` (absent or not positive: none), lowest first. Pure. */
export function budgetLevelsReached(spent: number, budget: number | undefined): BudgetLevel[] {
  if (budget === undefined || !(budget > 0)) return [];
  return BUDGET_LEVELS.filter((level) => spent >= (budget * level) / 100);
}
