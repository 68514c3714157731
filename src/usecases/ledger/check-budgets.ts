import type { ProjectAllocation } from "../../checks/allocate-projects.ts";
import { type BudgetLevel, budgetLevelsReached } from "../../checks/budget-levels.ts";
import { localDayOf, localDayStartMs } from "../../checks/local-day.ts";
import type { BudgetNoticeStore } from "../../store/budget-notice-store.ts";
import type { Notifier, WardenLookup } from "../ports.ts";
import { claimSpan, type ProjectReportDeps, readProjectReport } from "./project-report.ts";

/** What a budget notice says: the project, the level reached, and what is burning the money. */
export interface BudgetNotice {
  project: string;
  month: string;
  level: BudgetLevel;
  budget: number;
  /** The month's cost so far (complete local days), team currency. */
  spent: number;
  /** The share of `spent` for idle GPUs the project held (`null` when it spent nothing). */
  idleShare: number | null;
  /** Where its claimed GPU-hours went this month, most first (at most 3 each). */
  hosts: { host: string; gpuHours: number }[];
  people: { user: string; gpuHours: number }[];
}

export interface BudgetDeps extends ProjectReportDeps {
  budgetNotices: BudgetNoticeStore;
  notifier: Notifier;
  warden: WardenLookup;
  transaction<T>(fn: () => T): T;
}

/**
 * Tells each project with a `monthly_budget` once per month and level (80 %, 100 %) when its cost so
 * far reaches it: a DM to each member and to the cost warden, worded by `words` for each of them.
 * The notice's exactly-once key and its messages are written in one transaction (the outbox sends
 * them), so a restart neither repeats nor loses one. Returns the notices sent.
 */
export function checkBudgets(
  deps: BudgetDeps,
  words: (notice: BudgetNotice, user: string) => { text: string; blocks?: unknown[] },
): BudgetNotice[] {
  const budgeted = Object.entries(deps.config.projects).filter(([, p]) => p.monthly_budget !== undefined);
  if (budgeted.length === 0) return [];
  const nowMs = deps.clock.now();
  const month = localDayOf(nowMs, deps.config.team.timezone).slice(0, 7);
  const report = readProjectReport(deps, month);
  if (report.fromDay === null) return [];
  const sent: BudgetNotice[] = [];
  for (const [project, policy] of budgeted) {
    const row = report.rows.find((r) => r.project === project);
    if (row === undefined) continue;
    for (const level of budgetLevelsReached(row.cost, policy.monthly_budget)) {
      const notice = noticeOf(deps, project, month, level, policy.monthly_budget ?? 0, row, nowMs);
      const recipients = [...new Set([...policy.members, ...(warden(deps, nowMs) ?? [])])];
      const took = deps.transaction(() => {
        if (!deps.budgetNotices.take(project, month, level, nowMs)) return false;
        for (const user of recipients) {
          deps.notifier.send("chat.postMessage", { channel: user, ...words(notice, user) });
        }
        return true;
      });
      if (took) sent.push(notice);
    }
  }
  return sent;
}

function warden(deps: BudgetDeps, nowMs: number): string[] | null {
  const current = deps.warden.current(nowMs);
  return current === null ? null : [current];
}

function noticeOf(
  deps: BudgetDeps,
  project: string,
  month: string,
  level: BudgetLevel,
  budget: number,
  row: ProjectAllocation,
  nowMs: number,
): BudgetNotice {
  const byHost = new Map<string, number>();
  const byUser = new Map<string, number>();
  const gpus = new Map(deps.metrics.hosts().map((host) => [host.name, host.gpus.length]));
  const claims = deps.claims.overlapping(0, nowMs).filter((claim) => claim.project === project);
  const monthStart = localDayStartMs(`${month}-01`, deps.config.team.timezone);
  for (const claim of claims) {
    const span = claimSpan(claim, nowMs);
    const hours =
      (Math.max(0, span.toMs - Math.max(span.fromMs, monthStart)) / 3_600_000) *
      (claim.gpuIndex === null ? (gpus.get(claim.host) ?? 0) : 1);
    if (hours <= 0) continue;
    byHost.set(claim.host, (byHost.get(claim.host) ?? 0) + hours);
    byUser.set(claim.user, (byUser.get(claim.user) ?? 0) + hours);
  }
  const top = <K extends string>(map: Map<string, number>, key: K) =>
    [...map]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([name, gpuHours]) => ({ [key]: name, gpuHours }) as Record<K, string> & { gpuHours: number });
  return {
    project,
    month,
    level,
    budget,
    spent: row.cost,
    idleShare: row.cost > 0 ? row.idleCost / row.cost : null,
    hosts: top(byHost, "host"),
    people: top(byUser, "user"),
  };
}
