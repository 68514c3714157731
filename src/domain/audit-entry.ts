export interface AuditEntry {
  id: number;
  atMs: number;
  /** Slack user id, or `gpu-warden` for the bot itself. */
  actor: string;
  /** `stop`, `pre-stop`, `stop-refused`, `keep`, `claim`, … */
  action: string;
  host: string | null;
  detail: Record<string, unknown>;
  exitCode: number | null;
  outputTail: string | null;
  forced: boolean;
  dryRun: boolean;
}

export type NewAuditEntry = Omit<
  AuditEntry,
  "id" | "detail" | "exitCode" | "outputTail" | "forced" | "dryRun"
> &
  Partial<Pick<AuditEntry, "detail" | "exitCode" | "outputTail" | "forced" | "dryRun">>;
