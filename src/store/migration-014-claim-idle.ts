import type { Migration } from "./migrations.ts";

/**
 * Schema step 14: the claims job's idle stretches, one row per claimed host (`gpus` is the JSON of
 * each GPU's stretch, `read_up_to_ms` the last poll read into it), so that it reads each poll's
 * samples once and a restart keeps how long a claim has been idle; and indexes that find a host's
 * latest stop run and the open alerts without scanning every one ever made.
 */
export const claimIdleMigration: Migration = {
  version: 14,
  name: "claim-idle",
  up(db) {
    db.exec(`
      CREATE TABLE claim_idle (
        host TEXT PRIMARY KEY,
        from_ms INTEGER NOT NULL,
        read_up_to_ms INTEGER NOT NULL,
        gpus TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE INDEX stop_run_host ON stop_run (host, id);
      CREATE INDEX alert_open ON alert (id) WHERE state = 'open';
    `);
  },
};
