import type { Migration } from "./migrations.ts";

/**
 * Schema step 5: the reclaim workflow (cases, and the hosts lent out by a decision) and the
 * do-not-renew flags sent to the cost warden.
 */
export const reclaimMigration: Migration = {
  version: 5,
  name: "reclaim",
  up(db) {
    db.exec(`
      -- state: pending | due (open), then cleared | stopped | lent | kept (ended).
      CREATE TABLE reclaim_case (
        id INTEGER PRIMARY KEY,
        host TEXT NOT NULL,
        state TEXT NOT NULL,
        started_ms INTEGER NOT NULL,
        window_mean_pct REAL,
        observe_until_ms INTEGER NOT NULL,
        due_ms INTEGER,
        ended_ms INTEGER,
        decided_by TEXT,
        detail TEXT NOT NULL DEFAULT '{}'
      );
      CREATE UNIQUE INDEX reclaim_case_open ON reclaim_case (host) WHERE state IN ('pending', 'due');
      CREATE INDEX reclaim_case_host ON reclaim_case (host, id);

      -- A host lent by a reclaim decision: the latest row per host is in force. owner NULL: a project only.
      CREATE TABLE host_lend (
        id INTEGER PRIMARY KEY,
        host TEXT NOT NULL,
        owner TEXT,
        project TEXT,
        since_ms INTEGER NOT NULL,
        by_user TEXT NOT NULL,
        case_id INTEGER REFERENCES reclaim_case (id)
      );
      CREATE INDEX host_lend_host ON host_lend (host, id);


      -- Do-not-renew flags sent to the warden: once per host and summary slot.
      CREATE TABLE renewal_flag (
        host TEXT NOT NULL,
        slot_ms INTEGER NOT NULL,
        util_pct REAL NOT NULL,
        previous_util_pct REAL NOT NULL,
        PRIMARY KEY (host, slot_ms)
      ) WITHOUT ROWID;
    `);
  },
};
