import type { Migration } from "./migrations.ts";

/**
 * Schema step 8: reservations (`/gpu reserve`). A one-off window has `day` (a local `YYYY-MM-DD`),
 * a standing one `weekdays` (a JSON array of ISO weekdays); both have local minutes after midnight,
 * turned into instants in the team zone when read, so they hold across DST changes.
 */
export const reservationsMigration: Migration = {
  version: 8,
  name: "reservations",
  up(db) {
    db.exec(`
      CREATE TABLE reservation (
        id INTEGER PRIMARY KEY,
        user TEXT NOT NULL,
        project TEXT,
        host TEXT NOT NULL,
        -- JSON array of GPU indexes; NULL: the whole host
        gpus TEXT,
        day TEXT,
        weekdays TEXT,
        start_min INTEGER NOT NULL CHECK (start_min >= 0 AND start_min < 1440),
        end_min INTEGER NOT NULL CHECK (end_min > start_min AND end_min <= 1440),
        note TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        cancelled_ms INTEGER,
        cancelled_by TEXT,
        CHECK ((day IS NULL) <> (weekdays IS NULL))
      );
      CREATE INDEX reservation_live ON reservation (cancelled_ms, host);
    `);
  },
};
