import type { Migration } from "./migrations.ts";

/**
 * Schema step 11: host hygiene. One row per host and finding key (or `could-not-check:<check>`),
 * the finding as JSON, a fingerprint that changes when the finding does, and when each surface
 * (the warden's checklist, the biweekly summary) last showed it: shown once until it changes.
 */
export const hygieneMigration: Migration = {
  version: 10,
  name: "hygiene",
  up(db) {
    db.exec(`
      CREATE TABLE hygiene_item (
        host TEXT NOT NULL,
        key TEXT NOT NULL,
        check_name TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        item TEXT NOT NULL,
        first_seen_ms INTEGER NOT NULL,
        changed_ms INTEGER NOT NULL,
        last_seen_ms INTEGER NOT NULL,
        resolved_ms INTEGER,
        warden_shown_ms INTEGER,
        summary_shown_ms INTEGER,
        PRIMARY KEY (host, key)
      ) WITHOUT ROWID;
    `);
  },
};
