export interface StopRun {
  id: number;
  key: string;
  host: string;
  alertId: number | null;
  actor: string;
  state: "running" | "done" | "failed";
  forced: boolean;
  dryRun: boolean;
  startedAtMs: number;
  finishedAtMs: number | null;
}
