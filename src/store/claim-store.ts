import type { Database } from "better-sqlite3";
import type { Claim, ClaimEndReason, ClaimWait, NewClaim } from "../domain/claim.ts";

/** The waitlist; one open entry per user and slot. */
export interface ClaimWaitlist {
  /** Adds the entry unless the user already waits for that slot; true when added. */
  add(wait: Omit<ClaimWait, "id">): boolean;
  /** Open entries on the host, oldest first. */
  openOn(host: string): ClaimWait[];
  markNotified(ids: readonly number[], atMs: number): void;
}

/**
 * Claims on hosts and GPUs. At most one unreleased claim per slot (a unique index): an insert that
 * would double-book throws. Every change to several claims is one transaction: all or none. Claims past their end stay unreleased until {@link ClaimStore.expireDue}
 * ends them (the expiry job, or a claim on the same host).
 */
export interface ClaimStore {
  add(claim: NewClaim): Claim;
  /** Claims on the host in force at `atMs`. */
  activeOn(host: string, atMs: number): Claim[];
  activeAt(atMs: number): Claim[];
  /** Every unreleased claim, whatever its end (each still holds its slot in the unique index). */
  held(): Claim[];
  /** `user`'s claims in force at `atMs`, by host then GPU. */
  activeOf(user: string, atMs: number): Claim[];
  /** Unreleased claims by id (any end time), in id order; unknown or released ids are left out. */
  unreleased(ids: readonly number[]): Claim[];
  byIds(ids: readonly number[]): Claim[];
  /**
   * Ends every unreleased claim whose time is up at `atMs` (on `host` only, when given) as
   * `expired` at its own end time, by `actor`. Returns them as they are now.
   */
  expireDue(atMs: number, actor: string, host?: string): Claim[];
  /** Ends the claims at `atMs`; returns those that were still unreleased. */
  release(ids: readonly number[], atMs: number, by: string, reason: ClaimEndReason): Claim[];
  /** Moves the end of the claims and clears their reminder. */
  setUntil(ids: readonly number[], untilMs: number): void;
  markReminded(ids: readonly number[], atMs: number): void;
  markNudged(ids: readonly number[], atMs: number): void;
  markStillUsing(ids: readonly number[], atMs: number): void;
  /** Claims held at some time in `[fromMs, toMs)` (ended or not), for reports. */
  overlapping(fromMs: number, toMs: number): Claim[];
  waitlist: ClaimWaitlist;
}

interface ClaimRow {
  id: number;
  host: string;
  gpu_index: number | null;
  user: string;
  from_ms: number;
  until_ms: number;
  note: string;
  released_ms: number | null;
  released_by: string | null;
  end_reason: ClaimEndReason | null;
  reminded_ms: number | null;
  nudged_ms: number | null;
  still_using_ms: number | null;
  project: string | null;
}

interface WaitRow {
  id: number;
  host: string;
  gpu_index: number | null;
  user: string;
  created_ms: number;
}

const toClaim = (row: ClaimRow): Claim => ({
  id: row.id,
  host: row.host,
  gpuIndex: row.gpu_index,
  user: row.user,
  fromMs: row.from_ms,
  untilMs: row.until_ms,
  note: row.note,
  releasedAtMs: row.released_ms,
  releasedBy: row.released_by,
  endReason: row.end_reason,
  remindedAtMs: row.reminded_ms,
  nudgedAtMs: row.nudged_ms,
  stillUsingAtMs: row.still_using_ms,
  project: row.project ?? null,
});

const ORDER = "ORDER BY host, ifnull(gpu_index, -1), id";

export function createClaimStore(db: Database): ClaimStore {
  const insert = db.prepare(
    "INSERT INTO claim (host, gpu_index, user, from_ms, until_ms, note, project) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const selectById = db.prepare("SELECT * FROM claim WHERE id = ?");
  const selectActiveOn = db.prepare(
    "SELECT * FROM claim WHERE host = ? AND released_ms IS NULL AND from_ms <= ? AND until_ms > ? ORDER BY id",
  );
  const selectActive = db.prepare(
    `SELECT * FROM claim WHERE released_ms IS NULL AND from_ms <= ? AND until_ms > ? ${ORDER}`,
  );
  const selectHeld = db.prepare(`SELECT * FROM claim WHERE released_ms IS NULL ${ORDER}`);
  const selectActiveOf = db.prepare(
    `SELECT * FROM claim WHERE user = ? AND released_ms IS NULL AND from_ms <= ? AND until_ms > ? ${ORDER}`,
  );
  const selectDue = db.prepare(
    `SELECT * FROM claim WHERE released_ms IS NULL AND until_ms <= :atMs AND (:host IS NULL OR host = :host) ${ORDER}`,
  );
  const expire = db.prepare(
    "UPDATE claim SET released_ms = until_ms, released_by = ?, end_reason = 'expired' WHERE id = ? AND released_ms IS NULL",
  );
  const releaseOne = db.prepare(
    "UPDATE claim SET released_ms = ?, released_by = ?, end_reason = ? WHERE id = ? AND released_ms IS NULL",
  );
  const updateUntil = db.prepare(
    "UPDATE claim SET until_ms = ?, reminded_ms = NULL WHERE id = ? AND released_ms IS NULL",
  );
  const updateReminded = db.prepare("UPDATE claim SET reminded_ms = ? WHERE id = ?");
  const updateNudged = db.prepare("UPDATE claim SET nudged_ms = ? WHERE id = ?");
  const updateStillUsing = db.prepare("UPDATE claim SET still_using_ms = ? WHERE id = ?");
  const selectOverlapping = db.prepare(
    `SELECT * FROM claim WHERE from_ms < :toMs AND ifnull(released_ms, until_ms) > :fromMs ${ORDER}`,
  );

  const byId = (id: number): Claim | null => {
    const row = selectById.get(id) as ClaimRow | undefined;
    return row === undefined ? null : toClaim(row);
  };
  const byIds = (ids: readonly number[]): Claim[] =>
    [...new Set(ids)]
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const claim = byId(id);
        return claim === null ? [] : [claim];
      });
  const each = db.transaction((ids: readonly number[], fn: (id: number) => void) => {
    for (const id of new Set(ids)) fn(id);
  });
  const expireAll = db.transaction((atMs: number, actor: string, host: string | null): number[] => {
    const due = selectDue.all({ atMs, host }) as ClaimRow[];
    for (const row of due) expire.run(actor, row.id);
    return due.map((row) => row.id);
  });
  const releaseAll = db.transaction(
    (ids: readonly number[], atMs: number, by: string, reason: ClaimEndReason): number[] =>
      [...new Set(ids)].filter((id) => releaseOne.run(atMs, by, reason, id).changes === 1),
  );

  return {
    add: (claim) => {
      const id = insert.run(
        claim.host,
        claim.gpuIndex,
        claim.user,
        claim.fromMs,
        claim.untilMs,
        claim.note,
        claim.project ?? null,
      ).lastInsertRowid;
      return toClaim(selectById.get(id) as ClaimRow);
    },
    activeOn: (host, atMs) => (selectActiveOn.all(host, atMs, atMs) as ClaimRow[]).map(toClaim),
    activeAt: (atMs) => (selectActive.all(atMs, atMs) as ClaimRow[]).map(toClaim),
    held: () => (selectHeld.all() as ClaimRow[]).map(toClaim),
    activeOf: (user, atMs) => (selectActiveOf.all(user, atMs, atMs) as ClaimRow[]).map(toClaim),
    unreleased: (ids) => byIds(ids).filter((claim) => claim.releasedAtMs === null),
    byIds,
    expireDue: (atMs, actor, host) => byIds(expireAll(atMs, actor, host ?? null)),
    release: (ids, atMs, by, reason) => byIds(releaseAll(ids, atMs, by, reason)),
    setUntil: (ids, untilMs) => each(ids, (id) => updateUntil.run(untilMs, id)),
    markReminded: (ids, atMs) => each(ids, (id) => updateReminded.run(atMs, id)),
    markNudged: (ids, atMs) => each(ids, (id) => updateNudged.run(atMs, id)),
    markStillUsing: (ids, atMs) => each(ids, (id) => updateStillUsing.run(atMs, id)),
    overlapping: (fromMs, toMs) => (selectOverlapping.all({ fromMs, toMs }) as ClaimRow[]).map(toClaim),
    waitlist: createClaimWaitlist(db),
  };
}

function createClaimWaitlist(db: Database): ClaimWaitlist {
  const insertWait = db.prepare(
    `INSERT INTO claim_wait (host, gpu_index, user, created_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const selectWaits = db.prepare(
    "SELECT * FROM claim_wait WHERE host = ? AND notified_ms IS NULL ORDER BY id",
  );
  const updateWaitNotified = db.prepare("UPDATE claim_wait SET notified_ms = ? WHERE id = ?");
  return {
    add: (wait) => insertWait.run(wait.host, wait.gpuIndex, wait.user, wait.createdAtMs).changes === 1,
    openOn: (host) =>
      (selectWaits.all(host) as WaitRow[]).map((row) => ({
        id: row.id,
        host: row.host,
        gpuIndex: row.gpu_index,
        user: row.user,
        createdAtMs: row.created_ms,
      })),
    markNotified: db.transaction((ids: readonly number[], atMs: number) => {
      for (const id of new Set(ids)) updateWaitNotified.run(atMs, id);
    }),
  };
}
