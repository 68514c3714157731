import type { Migration } from "./migrations.ts";

/**
 * Schema step 15: each clock hour's GPU rollups packed into one row (`gpu_ids` little-endian int32,
 * the others float64 with NaN for "no value", in `gpu_id` order), written with the hour's rollup and
 * kept for the last weeks only: the biweekly summary reads two weeks of 80,000 GPUs as 336 rows
 * instead of 27 M. `gpu_hour` stays the record; an hour without a pack is read from it.
 */
export const hourPacksMigration: Migration = {
  version: 15,
  name: "hour-packs",
  up(db) {
    db.exec(`
      CREATE TABLE gpu_hour_pack (
        hour_ms INTEGER PRIMARY KEY,
        gpus INTEGER NOT NULL,
        gpu_ids BLOB NOT NULL,
        util_mean_pct BLOB NOT NULL,
        busy_min BLOB NOT NULL,
        idle_min BLOB NOT NULL,
        unknown_min BLOB NOT NULL,
        energy_wh BLOB NOT NULL
      );
    `);
  },
};
