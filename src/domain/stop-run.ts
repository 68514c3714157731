export interface StopRun {
  id: number;
  key: string;
  host: string;
  alertId: number | null;
  actor: string;
  /** `interrupted`: still running when the bot died; ended after its action's timeout had passed. */
  state: "running" | "done" | "failed" | "interrupted";
  forced: boolean;
  dryRun: boolean;
  startedAtMs: number;
  finishedAtMs: number | null;
}
