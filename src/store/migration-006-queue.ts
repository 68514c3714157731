import type { Migration } from "./migrations.ts";

/**
 * Schema step 6: the waiting list (`/gpu claim … --wait`, *Wait for it*). A request waits in line
 * (`id` order is the line) until GPUs that fit are free; a grant is a real claim, made in the same
 * transaction as its `queue_grant` row, so the claims' unique index (`claim_held`) makes granting
 * one GPU twice impossible, and `queue_grant.claim_id` is unique besides.
 */
export const queueMigration: Migration = {
  version: 6,
  name: "queue",
  up(db) {
    db.exec(`
      -- One request in line. host NULL: any count GPUs (of model, NULL: any model); else the host
      -- and gpus (a JSON array of indexes, NULL: the whole host).
      CREATE TABLE queue_request (
        id INTEGER PRIMARY KEY,
        user TEXT NOT NULL,
        host TEXT,
        gpus TEXT,
        count INTEGER,
        model TEXT,
        duration_ms INTEGER NOT NULL,
        note TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        -- waiting | granted (until confirmed) | confirmed | lapsed (not confirmed in time) | cancelled
        state TEXT NOT NULL DEFAULT 'waiting',
        granted_ms INTEGER,
        confirm_by_ms INTEGER,
        ended_ms INTEGER
      );
      CREATE INDEX queue_request_state ON queue_request (state, id);

      -- One GPU (or whole host, gpu_index NULL) granted to a request, as the claim claim_id.
      CREATE TABLE queue_grant (
        id INTEGER PRIMARY KEY,
        request_id INTEGER NOT NULL REFERENCES queue_request (id),
        claim_id INTEGER NOT NULL UNIQUE REFERENCES claim (id),
        host TEXT NOT NULL,
        gpu_index INTEGER,
        granted_ms INTEGER NOT NULL
      );
      CREATE INDEX queue_grant_request ON queue_grant (request_id);
    `);
  },
};
