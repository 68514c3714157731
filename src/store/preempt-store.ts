import type { Database } from "better-sqlite3";

/** An ask: open, released by the bot when due, ended before (the holder released it), or void (the request stopped waiting). */
export type PreemptState = "asked" | "released" | "ended" | "void";

/** One running claim asked to make room for a waiting request of higher priority. */
export interface Preempt {
  id: number;
  requestId: number;
  claimId: number;
  holder: string;
  askedAtMs: number;
  /** When the bot releases the claim, unless it ended before. */
  releaseAtMs: number;
  /** Whether the holder has taken their one extra grace (*I need 30 more minutes*). */
  deferred: boolean;
  state: PreemptState;
  endedAtMs: number | null;
}

/**
 * The preemption asks (schema step 7). A claim has at most one open ask (unique index); every
 * state change is from `asked`, so a due ask is acted on once even across restarts.
 */
export interface PreemptStore {
  ask(ask: {
    requestId: number;
    claimId: number;
    holder: string;
    askedAtMs: number;
    releaseAtMs: number;
  }): Preempt;
  byId(id: number): Preempt | null;
  /** Open asks, oldest first. */
  open(): Preempt[];
  /** The requests that have asked for room, ever (a request asks once). */
  askedRequests(): Set<number>;
  /** Open asks due by `atMs`. */
  dueBy(atMs: number): Preempt[];
  /** Moves open asks to `to`; returns the ids that were open. */
  close(ids: readonly number[], to: Exclude<PreemptState, "asked">, atMs: number): number[];
  /** Pushes an open, not yet deferred ask's release to `releaseAtMs`; false when it was not. */
  defer(id: number, releaseAtMs: number): boolean;
}

interface PreemptRow {
  id: number;
  request_id: number;
  claim_id: number;
  holder: string;
  asked_ms: number;
  release_at_ms: number;
  deferred: number;
  state: PreemptState;
  ended_ms: number | null;
}

const toPreempt = (row: PreemptRow): Preempt => ({
  id: row.id,
  requestId: row.request_id,
  claimId: row.claim_id,
  holder: row.holder,
  askedAtMs: row.asked_ms,
  releaseAtMs: row.release_at_ms,
  deferred: row.deferred === 1,
  state: row.state,
  endedAtMs: row.ended_ms,
});

export function createPreemptStore(db: Database): PreemptStore {
  const insert = db.prepare(
    `INSERT INTO queue_preempt (request_id, claim_id, holder, asked_ms, release_at_ms)
     VALUES (:requestId, :claimId, :holder, :askedAtMs, :releaseAtMs)`,
  );
  const selectById = db.prepare("SELECT * FROM queue_preempt WHERE id = ?");
  const selectOpen = db.prepare("SELECT * FROM queue_preempt WHERE state = 'asked' ORDER BY id");
  const selectAsked = db.prepare("SELECT DISTINCT request_id FROM queue_preempt").pluck();
  const selectDue = db.prepare(
    "SELECT * FROM queue_preempt WHERE state = 'asked' AND release_at_ms <= ? ORDER BY id",
  );
  const closeOne = db.prepare(
    "UPDATE queue_preempt SET state = ?, ended_ms = ? WHERE id = ? AND state = 'asked'",
  );
  const deferOne = db.prepare(
    "UPDATE queue_preempt SET release_at_ms = ?, deferred = 1 WHERE id = ? AND state = 'asked' AND deferred = 0",
  );
  const byId = (id: number): Preempt | null => {
    const row = selectById.get(id) as PreemptRow | undefined;
    return row === undefined ? null : toPreempt(row);
  };
  return {
    ask: (ask) => byId(Number(insert.run(ask).lastInsertRowid)) as Preempt,
    byId,
    open: () => (selectOpen.all() as PreemptRow[]).map(toPreempt),
    askedRequests: () => new Set(selectAsked.all() as number[]),
    dueBy: (atMs) => (selectDue.all(atMs) as PreemptRow[]).map(toPreempt),
    close: (ids, to, atMs) => ids.filter((id) => closeOne.run(to, atMs, id).changes === 1),
    defer: (id, releaseAtMs) => deferOne.run(releaseAtMs, id).changes === 1,
  };
}
