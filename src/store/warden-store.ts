import type { Database } from "better-sqlite3";

/** A month whose cost warden a swap or a skip changed. */
export interface WardenTurn {
  /** `YYYY-MM` in the team time zone. */
  month: string;
  user: string;
  reason: "swap" | "skip";
  actor: string;
  atMs: number;
}

/** The rotation's overrides. */
export interface WardenStore {
  /** Every override, by month. */
  turns(): WardenTurn[];
  /** Writes the changed months (replacing earlier overrides of those months). */
  save(turns: readonly WardenTurn[]): void;
}

interface WardenTurnRow {
  month: string;
  user: string;
  reason: "swap" | "skip";
  actor: string;
  at_ms: number;
}

export function createWardenStore(db: Database): WardenStore {
  const selectAll = db.prepare("SELECT * FROM warden_turn ORDER BY month");
  const upsert = db.prepare(
    `INSERT INTO warden_turn (month, user, reason, actor, at_ms) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (month) DO UPDATE SET user = excluded.user, reason = excluded.reason,
       actor = excluded.actor, at_ms = excluded.at_ms`,
  );
  const saveAll = db.transaction((turns: readonly WardenTurn[]) => {
    for (const turn of turns) upsert.run(turn.month, turn.user, turn.reason, turn.actor, turn.atMs);
  });
  return {
    turns: () =>
      (selectAll.all() as WardenTurnRow[]).map((row) => ({
        month: row.month,
        user: row.user,
        reason: row.reason,
        actor: row.actor,
        atMs: row.at_ms,
      })),
    save: (turns) => saveAll(turns),
  };
}
