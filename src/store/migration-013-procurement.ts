import type { Migration } from "./migrations.ts";

/**
 * Schema step 13: requests for more GPUs (`/gpu request`) with their plan and decision; an approved
 * request is a tracked plan.
 */
export const procurementMigration: Migration = {
  version: 13,
  name: "procurement",
  up(db) {
    db.exec(`
      CREATE TABLE procurement_request (
        id INTEGER PRIMARY KEY,
        requester TEXT NOT NULL,
        project TEXT,
        created_at_ms INTEGER NOT NULL,
        model TEXT NOT NULL,
        count INTEGER NOT NULL,
        kind TEXT NOT NULL,
        why TEXT NOT NULL,
        -- {"tasks":[{"day","task"}],"months":[{"month","gpuHours"}],"acceptance"}
        plan_json TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'open',
        decided_by TEXT,
        decided_at_ms INTEGER,
        reason TEXT
      );
      CREATE INDEX procurement_request_state ON procurement_request (state);
    `);
  },
};
