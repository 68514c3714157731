import type { Migration } from "./migrations.ts";

/**
 * Schema step 18: *Done with mine* (`user` said at `at_ms`, on the idle alert `alert_id`, that their
 * sessions and processes on `host` may go; `pids` the JSON array of their GPU processes' pids there
 * then), one row per host and person, the latest press; the host stops once everything on it is held
 * by people who said so (see `done-with-mine.ts`).
 */
export const doneMarksMigration: Migration = {
  version: 18,
  name: "done-marks",
  up(db) {
    db.exec(`
      CREATE TABLE done_mark (
        host TEXT NOT NULL,
        user TEXT NOT NULL,
        alert_id INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        pids TEXT NOT NULL,
        PRIMARY KEY (host, user)
      ) WITHOUT ROWID;
    `);
  },
};
