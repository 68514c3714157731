import type { Database } from "better-sqlite3";
import type { AuditEntry, NewAuditEntry } from "../domain/audit-entry.ts";

export interface AuditStore {
  record(entry: NewAuditEntry): number;
  /** Newest first. */
  forHost(host: string, limit: number): AuditEntry[];
  byAction(action: string): AuditEntry[];
  /** Entries with one of `actions` and `fromMs <= atMs < toMs`, oldest first. */
  between(actions: readonly string[], fromMs: number, toMs: number): AuditEntry[];
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

function toEntry(row: AuditRow): AuditEntry {
  return {
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
  };
}

export function createAuditStore(db: Database): AuditStore {
  const insert = db.prepare(
    `INSERT INTO audit (at_ms, actor, action, host, detail, exit_code, output_tail, forced, dry_run)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const selectHost = db.prepare("SELECT * FROM audit WHERE host = ? ORDER BY id DESC LIMIT ?");
  const selectAction = db.prepare("SELECT * FROM audit WHERE action = ? ORDER BY id");
  return {
    record: (entry) =>
      Number(
        insert.run(
          entry.atMs,
          entry.actor,
          entry.action,
          entry.host,
          JSON.stringify(entry.detail ?? {}),
          entry.exitCode ?? null,
          entry.outputTail ?? null,
          entry.forced ? 1 : 0,
          entry.dryRun ? 1 : 0,
        ).lastInsertRowid,
      ),
    forHost: (host, limit) => (selectHost.all(host, limit) as AuditRow[]).map(toEntry),
    byAction: (action) => (selectAction.all(action) as AuditRow[]).map(toEntry),
    between: (actions, fromMs, toMs) => {
      if (actions.length === 0) return [];
      const rows = db
        .prepare(
          `SELECT * FROM audit WHERE action IN (${actions.map(() => "?").join(", ")})
           AND at_ms >= ? AND at_ms < ? ORDER BY at_ms, id`,
        )
        .all(...actions, fromMs, toMs) as AuditRow[];
      return rows.map(toEntry);
    },
  };
}
