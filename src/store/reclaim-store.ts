import type { Database } from "better-sqlite3";
import type { HostLend, ReclaimCase, ReclaimCaseState, ReclaimEnd } from "../domain/reclaim-case.ts";

/** Reclaim cases (at most one open per host) and lends. */
export interface ReclaimStore {
  open(host: string): ReclaimCase | null;
  allOpen(): ReclaimCase[];
  byId(id: number): ReclaimCase | null;
  /** The host's latest ended case. */
  lastEnded(host: string): ReclaimCase | null;
  /** Opens a case; `null` when the host already has an open one. */
  start(input: {
    host: string;
    startedAtMs: number;
    windowMeanPct: number;
    observeUntilMs: number;
  }): ReclaimCase | null;
  /** pending → due; false when the case was not pending. */
  markDue(id: number, atMs: number): boolean;
  /** Ends an open case; false when it was not open (someone else ended it first). */
  end(id: number, state: ReclaimEnd, atMs: number, by: string, detail: Record<string, unknown>): boolean;
  lend(lend: HostLend): void;
  lendOf(host: string): HostLend | null;
  /** The lend in force per host. */
  allLends(): Map<string, HostLend>;
}

interface CaseRow {
  id: number;
  host: string;
  state: ReclaimCaseState;
  started_ms: number;
  window_mean_pct: number | null;
  observe_until_ms: number;
  due_ms: number | null;
  ended_ms: number | null;
  decided_by: string | null;
  detail: string;
}

interface LendRow {
  host: string;
  owner: string | null;
  project: string | null;
  since_ms: number;
  by_user: string;
  case_id: number | null;
}

const toCase = (row: CaseRow): ReclaimCase => ({
  id: row.id,
  host: row.host,
  state: row.state,
  startedAtMs: row.started_ms,
  windowMeanPct: row.window_mean_pct,
  observeUntilMs: row.observe_until_ms,
  dueAtMs: row.due_ms,
  endedAtMs: row.ended_ms,
  decidedBy: row.decided_by,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
});

const toLend = (row: LendRow): HostLend => ({
  host: row.host,
  owner: row.owner,
  project: row.project,
  sinceMs: row.since_ms,
  byUser: row.by_user,
  caseId: row.case_id,
});

export function createReclaimStore(db: Database): ReclaimStore {
  const selectOpen = db.prepare("SELECT * FROM reclaim_case WHERE host = ? AND state IN ('pending', 'due')");
  const selectAllOpen = db.prepare(
    "SELECT * FROM reclaim_case WHERE state IN ('pending', 'due') ORDER BY started_ms, host",
  );
  const selectById = db.prepare("SELECT * FROM reclaim_case WHERE id = ?");
  const selectLastEnded = db.prepare(
    "SELECT * FROM reclaim_case WHERE host = ? AND ended_ms IS NOT NULL ORDER BY ended_ms DESC, id DESC LIMIT 1",
  );
  const insert = db.prepare(
    `INSERT INTO reclaim_case (host, state, started_ms, window_mean_pct, observe_until_ms)
     VALUES (?, 'pending', ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const updateDue = db.prepare(
    "UPDATE reclaim_case SET state = 'due', due_ms = ? WHERE id = ? AND state = 'pending'",
  );
  const updateEnd = db.prepare(
    `UPDATE reclaim_case SET state = ?, ended_ms = ?, decided_by = ?, detail = ?
     WHERE id = ? AND state IN ('pending', 'due')`,
  );
  const insertLend = db.prepare(
    "INSERT INTO host_lend (host, owner, project, since_ms, by_user, case_id) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const selectLend = db.prepare("SELECT * FROM host_lend WHERE host = ? ORDER BY id DESC LIMIT 1");
  const selectLends = db.prepare(
    "SELECT * FROM host_lend WHERE id IN (SELECT max(id) FROM host_lend GROUP BY host) ORDER BY host",
  );
  const one = (row: unknown) => (row === undefined ? null : toCase(row as CaseRow));
  return {
    open: (host) => one(selectOpen.get(host)),
    allOpen: () => (selectAllOpen.all() as CaseRow[]).map(toCase),
    byId: (id) => one(selectById.get(id)),
    lastEnded: (host) => one(selectLastEnded.get(host)),
    start(input) {
      const result = insert.run(input.host, input.startedAtMs, input.windowMeanPct, input.observeUntilMs);
      return result.changes === 1 ? one(selectById.get(result.lastInsertRowid)) : null;
    },
    markDue: (id, atMs) => updateDue.run(atMs, id).changes === 1,
    end: (id, state, atMs, by, detail) =>
      updateEnd.run(state, atMs, by, JSON.stringify(detail), id).changes === 1,
    lend(lend) {
      insertLend.run(lend.host, lend.owner, lend.project, lend.sinceMs, lend.byUser, lend.caseId);
    },
    lendOf: (host) => {
      const row = selectLend.get(host) as LendRow | undefined;
      return row === undefined ? null : toLend(row);
    },
    allLends: () => new Map((selectLends.all() as LendRow[]).map((row) => [row.host, toLend(row)])),
  };
}
