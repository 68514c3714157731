import type { Migration } from "./migrations.ts";

/**
 * Schema step 16: each host's idle state as the latest sweep left it (`state` its JSON without the
 * latest sample, `at_ms` the time of the latest sample applied, `policy` a fingerprint of the idle
 * policy it was computed under), written in the sweep's transaction, so that a restart reads one row
 * per host and replays only the polls after it instead of the whole restore window.
 */
export const idleSnapshotMigration: Migration = {
  version: 16,
  name: "idle-snapshot",
  up(db) {
    db.exec(`
      CREATE TABLE idle_snapshot (
        host TEXT PRIMARY KEY,
        at_ms INTEGER NOT NULL,
        policy TEXT NOT NULL,
        state TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
