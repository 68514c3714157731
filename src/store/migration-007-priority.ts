import type { Migration } from "./migrations.ts";

/**
 * Schema step 7: projects, priorities and preemption on the waiting list. A request carries its
 * project and priority (the line is priority first, then `id`); a preemption asks one running
 * claim to make room for a waiting request and is released at `release_at_ms` unless it ended
 * before. At most one open ask per claim (`queue_preempt_open`), and a due ask is closed in the
 * transaction that releases its claim, so a restart in the grace period goes on where it was, once.
 */
export const priorityMigration: Migration = {
  version: 7,
  name: "queue-priority",
  up(db) {
    db.exec(`
      ALTER TABLE queue_request ADD COLUMN project TEXT;
      ALTER TABLE queue_request ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX queue_request_line ON queue_request (state, priority DESC, id);

      -- One running claim asked to make room for request_id.
      -- state: asked | released (by the bot at release_at_ms) | ended (the claim ended before) | void (the request stopped waiting)
      CREATE TABLE queue_preempt (
        id INTEGER PRIMARY KEY,
        request_id INTEGER NOT NULL REFERENCES queue_request (id),
        claim_id INTEGER NOT NULL REFERENCES claim (id),
        holder TEXT NOT NULL,
        asked_ms INTEGER NOT NULL,
        release_at_ms INTEGER NOT NULL,
        deferred INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'asked',
        ended_ms INTEGER
      );
      CREATE UNIQUE INDEX queue_preempt_open ON queue_preempt (claim_id) WHERE state = 'asked';
      CREATE INDEX queue_preempt_due ON queue_preempt (state, release_at_ms);
    `);
  },
};
