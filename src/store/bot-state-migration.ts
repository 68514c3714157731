import type { Migration } from "./migrations.ts";

/**
 * Schema step 2: what the Slack side remembers across restarts — alerts, the outbox, the audit,
 * snoozes, claims, stop runs (exactly-once stops) and handled deliveries (Slack replays).
 */
export const botStateMigration: Migration = {
  version: 2,
  name: "bot-state",
  up(db) {
    db.exec(`
      -- One row per idle episode (kind 'idle') or no-data notice (kind 'no-data').
      CREATE TABLE alert (
        id INTEGER PRIMARY KEY,
        host TEXT NOT NULL,
        kind TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'open',
        opened_ms INTEGER NOT NULL,
        idle_since_ms INTEGER,
        channel TEXT,
        ts TEXT,
        resolution TEXT,
        resolved_ms INTEGER,
        escalated INTEGER NOT NULL DEFAULT 0,
        auto_stop_at_ms INTEGER
      );
      CREATE UNIQUE INDEX alert_open_per_host ON alert (host, kind) WHERE state = 'open';
      CREATE INDEX alert_host ON alert (host, id);

      -- Every message the bot sends, in order. args may hold {"$alertTs": id} placeholders that
      -- are filled with the alert message's ts when the row is sent.
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        method TEXT NOT NULL,
        args TEXT NOT NULL,
        alert_id INTEGER REFERENCES alert (id),
        role TEXT NOT NULL DEFAULT 'message',
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        not_before_ms INTEGER NOT NULL,
        created_ms INTEGER NOT NULL,
        done_ms INTEGER,
        error TEXT
      );
      CREATE INDEX outbox_pending ON outbox (state, id);

      CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at_ms INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        host TEXT,
        detail TEXT NOT NULL DEFAULT '{}',
        exit_code INTEGER,
        output_tail TEXT,
        forced INTEGER NOT NULL DEFAULT 0,
        dry_run INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX audit_host ON audit (host, at_ms);

      CREATE TABLE snooze (
        host TEXT PRIMARY KEY,
        until_ms INTEGER NOT NULL,
        by_user TEXT NOT NULL,
        set_ms INTEGER NOT NULL
      );

      -- gpu_index NULL claims the whole host.
      CREATE TABLE claim (
        id INTEGER PRIMARY KEY,
        host TEXT NOT NULL,
        gpu_index INTEGER,
        user TEXT NOT NULL,
        from_ms INTEGER NOT NULL,
        until_ms INTEGER NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        released_ms INTEGER,
        released_by TEXT
      );
      CREATE INDEX claim_active ON claim (host, released_ms, until_ms);

      -- One stop per key (an alert, or a host episode); state running | done | failed.
      CREATE TABLE stop_run (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        host TEXT NOT NULL,
        alert_id INTEGER,
        actor TEXT NOT NULL,
        state TEXT NOT NULL,
        forced INTEGER NOT NULL DEFAULT 0,
        dry_run INTEGER NOT NULL DEFAULT 0,
        started_ms INTEGER NOT NULL,
        finished_ms INTEGER
      );
      CREATE UNIQUE INDEX stop_run_live ON stop_run (key) WHERE state IN ('running', 'done');

      -- Slack deliveries already handled (Slack retries and replays deliver the same thing again).
      CREATE TABLE delivery (
        key TEXT PRIMARY KEY,
        at_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
