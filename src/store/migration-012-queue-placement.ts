import type { Migration } from "./migrations.ts";

/**
 * Schema step 12: a waiting request keeps the placement words of `/gpu claim <n> gpus>=<GiB> --valley
 * --wait`: its memory floor (`floor_mib`, NULL: none) and whether it may only be granted inside the
 * tariff's valley window (`valley`, 1).
 */
export const queuePlacementMigration: Migration = {
  version: 12,
  name: "queue-placement",
  up(db) {
    db.exec(`
      ALTER TABLE queue_request ADD COLUMN floor_mib INTEGER;
      ALTER TABLE queue_request ADD COLUMN valley INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
