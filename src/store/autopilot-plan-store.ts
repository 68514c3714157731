import type { Database } from "better-sqlite3";
import type { AutopilotEvidence, AutopilotPlan } from "../domain/autopilot-plan.ts";

/** The autopilot's warned stops, at most one per host. */
export interface AutopilotPlanStore {
  /** The plan on record for `host`, if any. */
  get(host: string): AutopilotPlan | null;
  all(): AutopilotPlan[];
  /** Records `plan`, replacing the host's previous one. */
  put(plan: AutopilotPlan): void;
  remove(host: string): void;
}

interface PlanRow {
  host: string;
  alert_id: number;
  class: string;
  evidence: string;
  warned_at_ms: number;
  stop_at_ms: number;
}

const toPlan = (row: PlanRow): AutopilotPlan => ({
  host: row.host,
  alertId: row.alert_id,
  evidence: JSON.parse(row.evidence) as AutopilotEvidence,
  warnedAtMs: row.warned_at_ms,
  stopAtMs: row.stop_at_ms,
});

export function createAutopilotPlanStore(db: Database): AutopilotPlanStore {
  const upsert = db.prepare(
    `INSERT INTO autopilot_plan (host, alert_id, class, evidence, warned_at_ms, stop_at_ms) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (host) DO UPDATE SET alert_id = excluded.alert_id, class = excluded.class,
       evidence = excluded.evidence, warned_at_ms = excluded.warned_at_ms, stop_at_ms = excluded.stop_at_ms`,
  );
  const selectOne = db.prepare("SELECT * FROM autopilot_plan WHERE host = ?");
  const selectAll = db.prepare("SELECT * FROM autopilot_plan ORDER BY host");
  const deleteOne = db.prepare("DELETE FROM autopilot_plan WHERE host = ?");
  return {
    get: (host) => {
      const row = selectOne.get(host) as PlanRow | undefined;
      return row ? toPlan(row) : null;
    },
    all: () => (selectAll.all() as PlanRow[]).map(toPlan),
    put: (plan) => {
      upsert.run(
        plan.host,
        plan.alertId,
        plan.evidence.class,
        JSON.stringify(plan.evidence),
        plan.warnedAtMs,
        plan.stopAtMs,
      );
    },
    remove: (host) => {
      deleteOne.run(host);
    },
  };
}
