import type { Migration } from "./migrations.ts";

/**
 * Schema step 3: claims in full. How a claim ended, the reminders and nudges sent for it, the
 * "still using it" answer, and the waitlist ("notify me when free").
 *
 * `claim_held` makes a double booking of one slot impossible even if a check were wrong: at most
 * one unreleased claim per GPU (and per whole host, slot -1). Claims the old code never released
 * (it had no expiry) are closed first: all but the newest per slot as expired at their end.
 */
export const claimsMigration: Migration = {
  version: 3,
  name: "claims",
  up(db) {
    db.exec(`
      UPDATE claim
         SET released_ms = until_ms, released_by = 'gpu-warden'
       WHERE released_ms IS NULL
         AND id NOT IN (
           SELECT max(id) FROM claim WHERE released_ms IS NULL GROUP BY host, ifnull(gpu_index, -1)
         );

      -- released | expired | idle | forced | replaced; NULL while the claim is held.
      ALTER TABLE claim ADD COLUMN end_reason TEXT;
      -- When the "ends soon" DM went out (reset by an extension).
      ALTER TABLE claim ADD COLUMN reminded_ms INTEGER;
      -- When the last "claimed but idle" DM went out.
      ALTER TABLE claim ADD COLUMN nudged_ms INTEGER;
      -- When the holder last answered "Still using it": idle time counts from then.
      ALTER TABLE claim ADD COLUMN still_using_ms INTEGER;

      UPDATE claim SET end_reason = 'expired' WHERE released_ms IS NOT NULL;

      CREATE UNIQUE INDEX claim_held ON claim (host, ifnull(gpu_index, -1)) WHERE released_ms IS NULL;
      CREATE INDEX claim_user ON claim (user, released_ms);

      -- "Notify me when free": gpu_index NULL waits for the whole host.
      CREATE TABLE claim_wait (
        id INTEGER PRIMARY KEY,
        host TEXT NOT NULL,
        gpu_index INTEGER,
        user TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        notified_ms INTEGER
      );
      CREATE UNIQUE INDEX claim_wait_open ON claim_wait (host, ifnull(gpu_index, -1), user)
        WHERE notified_ms IS NULL;
    `);
  },
};
