import type { Migration } from "./migrations.ts";

/**
 * Schema step 9: the autopilot's warned stops, one per host, so that a restart during a warning
 * neither forgets the plan nor warns twice (`evidence` is the JSON of the check's evidence); and the
 * ledger's `idle_saving`, the part of the idle cost a stop would have saved (NULL on older rows).
 */
export const autopilotMigration: Migration = {
  version: 9,
  name: "autopilot",
  up(db) {
    db.exec(`
      CREATE TABLE autopilot_plan (
        host TEXT PRIMARY KEY,
        alert_id INTEGER NOT NULL,
        class TEXT NOT NULL,
        evidence TEXT NOT NULL,
        warned_at_ms INTEGER NOT NULL,
        stop_at_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      ALTER TABLE ledger_day ADD COLUMN idle_saving REAL;
    `);
  },
};
