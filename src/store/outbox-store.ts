import type { Database } from "better-sqlite3";

/**
 * `message`: an ordinary call. `alert-post`: posts an alert; its result's ts is stored on the alert.
 * `alert-update`: rewrites the alert message; a newer pending update of the same alert supersedes it.
 */
export type OutboxRole = "message" | "alert-post" | "alert-update";

export interface OutboxItem {
  id: number;
  method: string;
  /** Web API arguments; `{ "$alertTs": id }` values are replaced by that alert's message ts. */
  args: Record<string, unknown>;
  alertId: number | null;
  role: OutboxRole;
  attempts: number;
  notBeforeMs: number;
  createdAtMs: number;
}

export interface OutboxStore {
  enqueue(
    item: { method: string; args: Record<string, unknown>; alertId?: number | null; role?: OutboxRole },
    atMs: number,
  ): number;
  /** The oldest pending item (order is kept: a later item never overtakes an earlier one). */
  next(): OutboxItem | null;
  markSent(id: number, atMs: number): void;
  /** Gives up on an item Slack will never accept (e.g. invalid_blocks); the queue moves on. */
  markDead(id: number, error: string, atMs: number): void;
  /** Counts a failed attempt and holds the item (and so the queue) until `notBeforeMs`. */
  retryLater(id: number, error: string, notBeforeMs: number): void;
  /** Drops an alert-update when a newer pending update of the same alert exists. */
  isSuperseded(item: OutboxItem): boolean;
  pendingCount(): number;
}

interface OutboxRow {
  id: number;
  method: string;
  args: string;
  alert_id: number | null;
  role: OutboxRole;
  attempts: number;
  not_before_ms: number;
  created_ms: number;
}

export function createOutboxStore(db: Database): OutboxStore {
  const insert = db.prepare(
    "INSERT INTO outbox (method, args, alert_id, role, not_before_ms, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const selectNext = db.prepare("SELECT * FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1");
  const updateSent = db.prepare(
    "UPDATE outbox SET state = 'sent', done_ms = ?, attempts = attempts + 1 WHERE id = ?",
  );
  const updateDead = db.prepare(
    "UPDATE outbox SET state = 'dead', error = ?, done_ms = ?, attempts = attempts + 1 WHERE id = ?",
  );
  const updateRetry = db.prepare(
    "UPDATE outbox SET attempts = attempts + 1, error = ?, not_before_ms = ? WHERE id = ?",
  );
  const selectNewerUpdate = db
    .prepare(
      "SELECT 1 FROM outbox WHERE state = 'pending' AND role = 'alert-update' AND alert_id = ? AND id > ? LIMIT 1",
    )
    .pluck();
  const countPending = db.prepare("SELECT count(*) FROM outbox WHERE state = 'pending'").pluck();

  return {
    enqueue: (item, atMs) =>
      Number(
        insert.run(
          item.method,
          JSON.stringify(item.args),
          item.alertId ?? null,
          item.role ?? "message",
          atMs,
          atMs,
        ).lastInsertRowid,
      ),
    next: () => {
      const row = selectNext.get() as OutboxRow | undefined;
      if (!row) return null;
      return {
        id: row.id,
        method: row.method,
        args: JSON.parse(row.args) as Record<string, unknown>,
        alertId: row.alert_id,
        role: row.role,
        attempts: row.attempts,
        notBeforeMs: row.not_before_ms,
        createdAtMs: row.created_ms,
      };
    },
    markSent: (id, atMs) => {
      updateSent.run(atMs, id);
    },
    markDead: (id, error, atMs) => {
      updateDead.run(error, atMs, id);
    },
    retryLater: (id, error, notBeforeMs) => {
      updateRetry.run(error, notBeforeMs, id);
    },
    isSuperseded: (item) =>
      item.role === "alert-update" &&
      item.alertId !== null &&
      selectNewerUpdate.get(item.alertId, item.id) === 1,
    pendingCount: () => countPending.get() as number,
  };
}
