import type { Database } from "better-sqlite3";
import type {
  PlanMonth,
  PlanTask,
  ProcurementDraft,
  ProcurementKind,
  ProcurementRequest,
  ProcurementState,
} from "../domain/procurement-request.ts";

/** Requests for more GPUs and their decisions (`/gpu request`). */
export interface ProcurementStore {
  create(input: { requester: string; project: string | null; atMs: number; draft: ProcurementDraft }): number;
  byId(id: number): ProcurementRequest | null;
  /**
   * Decides an open request; false when it was decided before (a double click, two deciders, a
   * replay after a restart): the first decision stands.
   */
  decide(
    id: number,
    decision: {
      state: Exclude<ProcurementState, "open">;
      actor: string;
      atMs: number;
      reason: string | null;
    },
  ): boolean;
  /** Approved requests (tracked plans), oldest first. */
  approved(): ProcurementRequest[];
}

interface Row {
  id: number;
  requester: string;
  project: string | null;
  created_at_ms: number;
  model: string;
  count: number;
  kind: string;
  why: string;
  plan_json: string;
  state: string;
  decided_by: string | null;
  decided_at_ms: number | null;
  reason: string | null;
}

interface PlanJson {
  tasks: PlanTask[];
  months: PlanMonth[];
  acceptance: string;
}

export function createProcurementStore(db: Database): ProcurementStore {
  const insert = db.prepare(
    `INSERT INTO procurement_request (requester, project, created_at_ms, model, count, kind, why, plan_json)
     VALUES (@requester, @project, @atMs, @model, @count, @kind, @why, @plan)`,
  );
  const one = db.prepare<[number], Row>("SELECT * FROM procurement_request WHERE id = ?");
  const decide = db.prepare(
    `UPDATE procurement_request SET state = @state, decided_by = @actor, decided_at_ms = @atMs, reason = @reason
     WHERE id = @id AND state = 'open'`,
  );
  const approved = db.prepare<[], Row>(
    "SELECT * FROM procurement_request WHERE state = 'approved' ORDER BY decided_at_ms, id",
  );
  return {
    create: ({ requester, project, atMs, draft }) => {
      const plan: PlanJson = { tasks: draft.tasks, months: draft.months, acceptance: draft.acceptance };
      const { model, count, kind, why } = draft;
      const params = { requester, project, atMs, model, count, kind, why, plan: JSON.stringify(plan) };
      return Number(insert.run(params).lastInsertRowid);
    },
    byId: (id) => {
      const row = one.get(id);
      return row === undefined ? null : fromRow(row);
    },
    decide: (id, decision) => decide.run({ id, ...decision }).changes === 1,
    approved: () => approved.all().map(fromRow),
  };
}

function fromRow(row: Row): ProcurementRequest {
  const plan = JSON.parse(row.plan_json) as PlanJson;
  return {
    id: row.id,
    requester: row.requester,
    project: row.project,
    createdAtMs: row.created_at_ms,
    model: row.model,
    count: row.count,
    kind: row.kind as ProcurementKind,
    why: row.why,
    tasks: plan.tasks,
    months: plan.months,
    acceptance: plan.acceptance,
    state: row.state as ProcurementState,
    decidedBy: row.decided_by,
    decidedAtMs: row.decided_at_ms,
    reason: row.reason,
  };
}
