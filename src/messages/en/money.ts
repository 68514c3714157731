/** Projects and money: quotas, budgets, the allocation of the fleet's cost to projects. */
export const money = {
  "money.overQuota":
    "Project `{project}` may hold at most {max} GPUs at once: it holds {held} and this asks for {asked}. Release some, or add `--wait` to join the waiting list.",
  "money.overQuota.waiting":
    "Project `{project}` may hold at most {max} GPUs at once and holds {held}: this waits until it may hold {asked} more.",
} as const satisfies Record<string, string>;
