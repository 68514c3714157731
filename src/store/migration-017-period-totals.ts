import type { Migration } from "./migrations.ts";

/**
 * Schema step 17: the per-GPU running sums of a summary period's hour packs (`sums` float64, 14 per
 * GPU of `gpu_ids`, see `period-sums.ts`), over the hours from `from_ms` to `covered_ms`, kept when
 * the summary is built, so that the next summary reads its trend's previous period from one row
 * instead of two weeks of packs. A pack written, replaced or deleted within the covered hours deletes
 * the row (the next summary then reads the packs).
 */
export const periodTotalsMigration: Migration = {
  version: 17,
  name: "period-totals",
  up(db) {
    db.exec(`
      CREATE TABLE period_totals (
        from_ms INTEGER PRIMARY KEY,
        covered_ms INTEGER NOT NULL,
        gpus INTEGER NOT NULL,
        gpu_ids BLOB NOT NULL,
        sums BLOB NOT NULL
      );
      CREATE TRIGGER period_totals_pack_inserted AFTER INSERT ON gpu_hour_pack BEGIN
        DELETE FROM period_totals WHERE NEW.hour_ms >= from_ms AND NEW.hour_ms < covered_ms;
      END;
      CREATE TRIGGER period_totals_pack_updated AFTER UPDATE ON gpu_hour_pack BEGIN
        DELETE FROM period_totals
        WHERE (NEW.hour_ms >= from_ms AND NEW.hour_ms < covered_ms)
           OR (OLD.hour_ms >= from_ms AND OLD.hour_ms < covered_ms);
      END;
      CREATE TRIGGER period_totals_pack_deleted AFTER DELETE ON gpu_hour_pack BEGIN
        DELETE FROM period_totals WHERE OLD.hour_ms >= from_ms AND OLD.hour_ms < covered_ms;
      END;
    `);
  },
};
