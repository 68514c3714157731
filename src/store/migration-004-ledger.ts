import type { Migration } from "./migrations.ts";

/**
 * Schema step 4: the daily cost ledger, the last runs of scheduled jobs (exactly once per slot,
 * caught up after downtime) and the cost warden's swaps and skips.
 */
export const ledgerMigration: Migration = {
  version: 4,
  name: "ledger",
  up(db) {
    db.exec(`
      -- One row per host and complete local day (team time zone); recomputed in place. Money in
      -- the team currency, NULL when the host has no price. basis: a digest of what the cost was
      -- computed with (prices, tariff, zone); a row whose basis differs from today's is recomputed.
      CREATE TABLE ledger_day (
        day TEXT NOT NULL,
        host TEXT NOT NULL,
        hours REAL NOT NULL,
        on_hours REAL NOT NULL,
        gpus INTEGER NOT NULL,
        busy_gpu_h REAL NOT NULL,
        idle_gpu_h REAL NOT NULL,
        unknown_gpu_h REAL NOT NULL,
        energy_kwh REAL,
        cost REAL,
        idle_cost REAL,
        capital REAL NOT NULL,
        upkeep REAL NOT NULL,
        energy_cost REAL NOT NULL,
        rent REAL NOT NULL,
        basis TEXT NOT NULL,
        computed_ms INTEGER NOT NULL,
        PRIMARY KEY (day, host)
      ) WITHOUT ROWID;

      -- Completed slots of scheduled jobs. A slot is recorded in the same transaction as the job's
      -- durable effect (e.g. the outbox rows of a message), so it is done exactly once. local_slot
      -- is the slot's wall-clock time in the job's zone: the repeated hour of a fall-back day
      -- cannot run a job twice.
      CREATE TABLE job_run (
        name TEXT NOT NULL,
        slot_ms INTEGER NOT NULL,
        local_slot TEXT NOT NULL,
        late INTEGER NOT NULL,
        done_ms INTEGER NOT NULL,
        PRIMARY KEY (name, slot_ms)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX job_run_local ON job_run (name, local_slot);

      -- Cost warden months changed by a swap or a skip (month YYYY-MM in the team time zone).
      CREATE TABLE warden_turn (
        month TEXT PRIMARY KEY,
        user TEXT NOT NULL,
        reason TEXT NOT NULL,
        actor TEXT NOT NULL,
        at_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
