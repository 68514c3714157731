import type { Database } from "better-sqlite3";
import type { OutboxRole } from "../domain/outbox-role.ts";

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

/**
 * What decides where a pending item may go in order (its conversation), read without parsing its
 * arguments: the target channel or user and the alert whose message it needs.
 */
export interface OutboxRoute {
  id: number;
  method: string;
  alertId: number | null;
  notBeforeMs: number;
  /** `channel` or `channel_id`, when a string. */
  channel: string | null;
  /** `thread_ts` when it is a literal ts. */
  threadTs: string | null;
  /** `user_id` (views.publish). */
  user: string | null;
  /** The alert a `{ "$alertTs": id }` placeholder in `ts` or `thread_ts` points at. */
  placeholderAlertId: number | null;
}

export interface OutboxStore {
  enqueue(
    item: { method: string; args: Record<string, unknown>; alertId?: number | null; role?: OutboxRole },
    atMs: number,
  ): number;
  /** The oldest pending item. */
  next(): OutboxItem | null;
  /**
   * Every pending item's id and not_before, oldest first (cheap: no arguments read), read as it is
   * iterated: a caller that stops early reads no further. Nothing may write to the store meanwhile.
   */
  pendingSchedule(): Iterable<{ id: number; notBeforeMs: number }>;
  /** The routes of the pending items from `minId` on, oldest first. */
  pendingRoutes(minId?: number): OutboxRoute[];
  /** A pending item by id; `null` once it is sent, dead or gone. */
  pendingById(id: number): OutboxItem | null;
  /**
   * Records, durably and before the Web API call, that the item's call is about to be made: after a
   * crash, {@link inFlightSince} says the call may have reached Slack although it was never recorded.
   * The worker records the first such call only (a later answer to it may still post).
   * Cleared when the item is sent or set aside; kept through retries (a timed-out call may have
   * completed).
   */
  markInFlight(id: number, atMs: number): void;
  /** Slack answered the call with a failure, so it did not post: no need to look for it later. */
  clearInFlight(id: number): void;
  /** When a call for this item was last begun without being recorded as sent or dead; `null`: never. */
  inFlightSince(id: number): number | null;
  markSent(id: number, atMs: number): void;
  /** Gives up on an item Slack will never accept (e.g. invalid_blocks); the queue moves on. */
  markDead(id: number, error: string, atMs: number): void;
  /** Counts a failed attempt and holds the item (and so its conversation) until `notBeforeMs`. */
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
  const selectRoutes = db.prepare(
    `SELECT id, method, alert_id AS alertId, not_before_ms AS notBeforeMs,
       coalesce(json_extract(args, '$.channel'), json_extract(args, '$.channel_id')) AS channel,
       json_extract(args, '$.thread_ts') AS threadTs,
       json_extract(args, '$.user_id') AS user,
       coalesce(json_extract(args, '$.ts."$alertTs"'), json_extract(args, '$.thread_ts."$alertTs"'))
         AS placeholderAlertId
     FROM outbox WHERE state = 'pending' AND id >= ? ORDER BY id`,
  );
  const selectSchedule = db.prepare(
    "SELECT id, not_before_ms AS notBeforeMs FROM outbox WHERE state = 'pending' ORDER BY id",
  );
  const selectPendingById = db.prepare("SELECT * FROM outbox WHERE state = 'pending' AND id = ?");
  const countPending = db.prepare("SELECT count(*) FROM outbox WHERE state = 'pending'").pluck();
  // NOTE: kept in the meta table (one row per call under way) rather than a new outbox column, so
  // no schema step is needed; the row lives only between the start of a call and its record.
  const upsertInFlight = db.prepare(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const selectInFlight = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  const deleteInFlight = db.prepare("DELETE FROM meta WHERE key = ?");

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
    next: () => itemOf(selectNext.get() as OutboxRow | undefined),
    pendingSchedule: () => selectSchedule.iterate() as Iterable<{ id: number; notBeforeMs: number }>,
    pendingRoutes: (minId = 0) =>
      (selectRoutes.all(minId) as Array<Record<string, unknown>>).map((row) => ({
        id: Number(row.id),
        method: String(row.method),
        alertId: typeof row.alertId === "number" ? row.alertId : null,
        notBeforeMs: Number(row.notBeforeMs),
        channel: textOrNull(row.channel),
        threadTs: textOrNull(row.threadTs),
        user: textOrNull(row.user),
        placeholderAlertId: typeof row.placeholderAlertId === "number" ? row.placeholderAlertId : null,
      })),
    pendingById: (id) => itemOf(selectPendingById.get(id) as OutboxRow | undefined),
    markInFlight: (id, atMs) => {
      upsertInFlight.run(inFlightKey(id), String(atMs));
    },
    clearInFlight: (id) => {
      deleteInFlight.run(inFlightKey(id));
    },
    inFlightSince: (id) => {
      const value = selectInFlight.get(inFlightKey(id)) as string | undefined;
      return value === undefined ? null : Number(value);
    },
    markSent: (id, atMs) => {
      updateSent.run(atMs, id);
      deleteInFlight.run(inFlightKey(id));
    },
    markDead: (id, error, atMs) => {
      updateDead.run(error, atMs, id);
      deleteInFlight.run(inFlightKey(id));
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

function inFlightKey(id: number): string {
  return `outbox.in_flight.${id}`;
}

function itemOf(row: OutboxRow | undefined): OutboxItem | null {
  if (row === undefined) return null;
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
}

/** A string from `json_extract` (objects come back as JSON text starting with `{`). */
function textOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" && !value.startsWith("{") ? value : null;
}
