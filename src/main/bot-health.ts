import type { StoreProblemError } from "../store/store-problem.ts";

/** What /healthz reports: the last poll (`starting` until one is written), and whether polls can be written. */
export class BotHealth {
  lastPollAtMs: number | null = null;
  /** Set while polls cannot be written (full disk, read-only remount): /healthz says so. */
  storeProblem: StoreProblemError | null = null;

  readonly report = () => ({
    ok: this.storeProblem === null,
    lastPollAtMs: this.lastPollAtMs,
    ...(this.lastPollAtMs === null ? { starting: true } : {}),
    ...(this.storeProblem
      ? { store: { path: this.storeProblem.path, problem: this.storeProblem.reason } }
      : {}),
  });
}
