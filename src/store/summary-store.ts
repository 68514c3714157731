import type { Database } from "better-sqlite3";
import type { AuditEntry } from "./audit-store.ts";

/** A claim as the summary needs it: who held which GPUs, from when to when. */
export interface ClaimSpan {
  host: string;
  /** `null`: the whole host. */
  gpuIndex: number | null;
  user: string;
  fromMs: number;
  untilMs: number;
  releasedAtMs: number | null;
}

/** What the biweekly summary reads beyond the metrics, and the do-not-renew flags sent. */
export interface SummaryStore {
  /** Records a do-not-renew flag; false when this host was already flagged for this slot. */
  flagRenewal(flag: { host: string; slotMs: number; utilPct: number; previousUtilPct: number }): boolean;
  /** Claims that overlap `[fromMs, toMs)` (ended ones included), oldest first. */
  claimsOverlapping(fromMs: number, toMs: number): ClaimSpan[];
  /** Audit entries with one of `actions` and `fromMs <= atMs < toMs`, oldest first. */
  auditBetween(actions: readonly string[], fromMs: number, toMs: number): AuditEntry[];
}

interface AuditRow {
  id: number;
  at_ms: number;
  actor: string;
  action: string;
  host: string | null;
  detail: string;
  exit_code: number | null;
  output_tail: string | null;
  forced: number;
  dry_run: number;
}

export function createSummaryStore(db: Database): SummaryStore {
  const insertFlag = db.prepare(
    `INSERT INTO renewal_flag (host, slot_ms, util_pct, previous_util_pct) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const selectClaims = db.prepare(
    `SELECT host, gpu_index, user, from_ms, until_ms, released_ms FROM claim
     WHERE from_ms < :toMs AND min(until_ms, ifnull(released_ms, until_ms)) > :fromMs ORDER BY from_ms, id`,
  );
  return {
    flagRenewal: (flag) =>
      insertFlag.run(flag.host, flag.slotMs, flag.utilPct, flag.previousUtilPct).changes === 1,
    claimsOverlapping: (fromMs, toMs) =>
      (
        selectClaims.all({ fromMs, toMs }) as {
          host: string;
          gpu_index: number | null;
          user: string;
          from_ms: number;
          until_ms: number;
          released_ms: number | null;
        }[]
      ).map((row) => ({
        host: row.host,
        gpuIndex: row.gpu_index,
        user: row.user,
        fromMs: row.from_ms,
        untilMs: row.until_ms,
        releasedAtMs: row.released_ms,
      })),
    auditBetween(actions, fromMs, toMs) {
      if (actions.length === 0) return [];
      const rows = db
        .prepare(
          `SELECT * FROM audit WHERE action IN (${actions.map(() => "?").join(", ")})
           AND at_ms >= ? AND at_ms < ? ORDER BY at_ms, id`,
        )
        .all(...actions, fromMs, toMs) as AuditRow[];
      return rows.map((row) => ({
        id: row.id,
        atMs: row.at_ms,
        actor: row.actor,
        action: row.action,
        host: row.host,
        detail: JSON.parse(row.detail) as Record<string, unknown>,
        exitCode: row.exit_code,
        outputTail: row.output_tail,
        forced: row.forced === 1,
        dryRun: row.dry_run === 1,
      }));
    },
  };
}
