import type { Migration } from "./migrations.ts";

/**
 * Schema step 18: *Done with mine* on an idle alert (`user` said at `at_ms` that their sessions and
 * processes on `host` may go), one row per alert and person; the host stops once everything on it is
 * held by people who said so (see `done-with-mine.ts`).
 */
export const doneMarksMigration: Migration = {
  version: 18,
  name: "done-marks",
  up(db) {
    db.exec(`
      CREATE TABLE done_mark (
        alert_id INTEGER NOT NULL,
        user TEXT NOT NULL,
        host TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (alert_id, user)
      ) WITHOUT ROWID;
    `);
  },
};
