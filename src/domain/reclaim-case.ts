/** `pending` and `due` are open; the others end a case. */
export type ReclaimCaseState = "pending" | "due" | "cleared" | "stopped" | "lent" | "kept";
export type ReclaimEnd = Exclude<ReclaimCaseState, "pending" | "due">;

export interface ReclaimCase {
  id: number;
  host: string;
  state: ReclaimCaseState;
  startedAtMs: number;
  /** The 30-day mean that opened the case. */
  windowMeanPct: number | null;
  observeUntilMs: number;
  /** When the warden was asked to decide. */
  dueAtMs: number | null;
  endedAtMs: number | null;
  /** Slack user id of who decided, or `gpu-warden` when use cleared it. */
  decidedBy: string | null;
  /** Why it ended: `{ reason }` for keep, `{ owner, project }` for lend, `{ dayStartMs, dayMeanPct }` for cleared. */
  detail: Record<string, unknown>;
}

/** A host lent out by a reclaim decision. */
export interface HostLend {
  host: string;
  /** Slack user id; `null` when lent to a project only. */
  owner: string | null;
  project: string | null;
  sinceMs: number;
  byUser: string;
  caseId: number | null;
}
