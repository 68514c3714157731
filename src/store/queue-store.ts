import type { Database } from "better-sqlite3";
import type {
  NewQueueRequest,
  QueueGrant,
  QueueRequest,
  QueueState,
  QueueWant,
} from "../domain/queue-request.ts";
import { createPreemptStore, type PreemptStore } from "./preempt-store.ts";

/**
 * The waiting list: requests in line (`id` order) and the claims granted to them. Write inside the
 * transaction that adds the claims (see {@link QueueStore.grant}).
 */
export interface QueueStore {
  add(request: NewQueueRequest): QueueRequest;
  byId(id: number): QueueRequest | null;
  /** Requests still in line: higher priority first, then first come. */
  waiting(): QueueRequest[];
  /** Granted requests not confirmed by `atMs`. */
  unconfirmedBy(atMs: number): QueueRequest[];
  /**
   * Marks a waiting request granted with its claims; false (and nothing written) when it no longer
   * waits. A claim id already granted throws (unique).
   */
  grant(
    requestId: number,
    claims: ReadonlyArray<{ id: number; host: string; gpuIndex: number | null }>,
    atMs: number,
    confirmByMs: number,
  ): boolean;
  grantsOf(requestId: number): QueueGrant[];
  /** Moves a request from `from` to `to`; false when it was not in `from`. */
  move(requestId: number, from: QueueState, to: QueueState, atMs: number): boolean;
  /** Every grant ever made, for counting (tests, benchmark). */
  allGrants(): QueueGrant[];
  /** Granted or confirmed requests holding any of `claimIds`. */
  grantedWith(claimIds: readonly number[]): QueueRequest[];
  /** Requests that waited at some time in `[fromMs, toMs)` (until granted or ended, or still waiting), by id. */
  waitedBetween(fromMs: number, toMs: number): QueueRequest[];
  /** Running claims asked to make room (preemption). */
  preempts: PreemptStore;
}

interface RequestRow {
  id: number;
  user: string;
  host: string | null;
  gpus: string | null;
  count: number | null;
  model: string | null;
  floor_mib: number | null;
  valley: number;
  duration_ms: number;
  note: string;
  created_ms: number;
  project: string | null;
  priority: number;
  state: QueueState;
  granted_ms: number | null;
  confirm_by_ms: number | null;
  ended_ms: number | null;
}

interface GrantRow {
  request_id: number;
  claim_id: number;
  host: string;
  gpu_index: number | null;
  granted_ms: number;
}

const toWant = (row: RequestRow): QueueWant =>
  row.host === null
    ? {
        kind: "count",
        count: row.count ?? 1,
        model: row.model,
        ...(row.floor_mib === null ? {} : { floorMiB: row.floor_mib }),
        ...(row.valley === 1 ? { valley: true as const } : {}),
      }
    : { kind: "slots", host: row.host, gpus: row.gpus === null ? null : (JSON.parse(row.gpus) as number[]) };

const toRequest = (row: RequestRow): QueueRequest => ({
  id: row.id,
  user: row.user,
  want: toWant(row),
  durationMs: row.duration_ms,
  note: row.note,
  createdAtMs: row.created_ms,
  project: row.project,
  priority: row.priority,
  state: row.state,
  grantedAtMs: row.granted_ms,
  confirmByMs: row.confirm_by_ms,
  endedAtMs: row.ended_ms,
});

const toGrant = (row: GrantRow): QueueGrant => ({
  requestId: row.request_id,
  claimId: row.claim_id,
  host: row.host,
  gpuIndex: row.gpu_index,
  grantedAtMs: row.granted_ms,
});

export function createQueueStore(db: Database): QueueStore {
  const insert = db.prepare(
    `INSERT INTO queue_request (user, host, gpus, count, model, floor_mib, valley, duration_ms, note, created_ms, project, priority)
     VALUES (:user, :host, :gpus, :count, :model, :floorMiB, :valley, :durationMs, :note, :createdAtMs, :project, :priority)`,
  );
  const selectById = db.prepare("SELECT * FROM queue_request WHERE id = ?");
  const selectWaitedBetween = db.prepare(
    `SELECT * FROM queue_request WHERE created_ms < :toMs
       AND coalesce(granted_ms, ended_ms, :toMs) > :fromMs ORDER BY id`,
  );
  const selectWaiting = db.prepare(
    "SELECT * FROM queue_request WHERE state = 'waiting' ORDER BY priority DESC, id",
  );
  const selectUnconfirmed = db.prepare(
    "SELECT * FROM queue_request WHERE state = 'granted' AND confirm_by_ms <= ? ORDER BY id",
  );
  const markGranted = db.prepare(
    `UPDATE queue_request SET state = 'granted', granted_ms = ?, confirm_by_ms = ?
      WHERE id = ? AND state = 'waiting'`,
  );
  const insertGrant = db.prepare(
    "INSERT INTO queue_grant (request_id, claim_id, host, gpu_index, granted_ms) VALUES (?, ?, ?, ?, ?)",
  );
  const selectGrants = db.prepare("SELECT * FROM queue_grant WHERE request_id = ? ORDER BY id");
  const selectAllGrants = db.prepare("SELECT * FROM queue_grant ORDER BY id");
  const updateState = db.prepare(
    `UPDATE queue_request SET state = :to, ended_ms = CASE WHEN :to IN ('lapsed', 'cancelled', 'released') THEN :atMs ELSE ended_ms END
      WHERE id = :id AND state = :from`,
  );
  const selectGrantedWith = db.prepare(
    `SELECT * FROM queue_request WHERE state IN ('granted', 'confirmed') AND id IN
       (SELECT request_id FROM queue_grant WHERE claim_id IN (SELECT value FROM json_each(?))) ORDER BY id`,
  );
  const byId = (id: number): QueueRequest | null => {
    const row = selectById.get(id) as RequestRow | undefined;
    return row === undefined ? null : toRequest(row);
  };

  return {
    waitedBetween: (fromMs, toMs) =>
      (selectWaitedBetween.all({ fromMs, toMs }) as RequestRow[]).map(toRequest),
    add: (request) => {
      const { want } = request;
      const id = insert.run({
        user: request.user,
        host: want.kind === "slots" ? want.host : null,
        gpus: want.kind === "slots" && want.gpus !== null ? JSON.stringify(want.gpus) : null,
        count: want.kind === "count" ? want.count : null,
        model: want.kind === "count" ? want.model : null,
        floorMiB: want.kind === "count" ? (want.floorMiB ?? null) : null,
        valley: want.kind === "count" && want.valley === true ? 1 : 0,
        durationMs: request.durationMs,
        note: request.note,
        createdAtMs: request.createdAtMs,
        project: request.project ?? null,
        priority: request.priority ?? 0,
      }).lastInsertRowid;
      return byId(Number(id)) as QueueRequest;
    },
    byId,
    waiting: () => (selectWaiting.all() as RequestRow[]).map(toRequest),
    unconfirmedBy: (atMs) => (selectUnconfirmed.all(atMs) as RequestRow[]).map(toRequest),
    grant: (requestId, claims, atMs, confirmByMs) => {
      if (markGranted.run(atMs, confirmByMs, requestId).changes !== 1) return false;
      for (const claim of claims) insertGrant.run(requestId, claim.id, claim.host, claim.gpuIndex, atMs);
      return true;
    },
    grantsOf: (requestId) => (selectGrants.all(requestId) as GrantRow[]).map(toGrant),
    move: (requestId, from, to, atMs) => updateState.run({ id: requestId, from, to, atMs }).changes === 1,
    allGrants: () => (selectAllGrants.all() as GrantRow[]).map(toGrant),
    grantedWith: (claimIds) =>
      claimIds.length === 0
        ? []
        : (selectGrantedWith.all(JSON.stringify(claimIds)) as RequestRow[]).map(toRequest),
    preempts: createPreemptStore(db),
  };
}
