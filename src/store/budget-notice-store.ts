import type { Database } from "better-sqlite3";

/** Which budget notices went out: one per project, month (`YYYY-MM`) and level (80, 100). */
export interface BudgetNoticeStore {
  /** Takes the notice's exactly-once key; false when it was taken before (sent, or being sent). */
  take(project: string, month: string, level: number, atMs: number): boolean;
}

export function createBudgetNoticeStore(db: Database): BudgetNoticeStore {
  const insert = db.prepare(
    "INSERT INTO budget_notice (project, month, level, at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  return {
    take: (project, month, level, atMs) => insert.run(project, month, level, atMs).changes === 1,
  };
}
