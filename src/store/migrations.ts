import type { Database } from "better-sqlite3";
import { botStateMigration } from "./bot-state-migration.ts";
import { claimsMigration } from "./migration-003-claims.ts";
import { ledgerMigration } from "./migration-004-ledger.ts";
import { reclaimMigration } from "./migration-005-reclaim.ts";
import { queueMigration } from "./migration-006-queue.ts";
import { priorityMigration } from "./migration-007-priority.ts";
import { reservationsMigration } from "./migration-008-reservations.ts";
import { autopilotMigration } from "./migration-009-autopilot.ts";
import { hygieneMigration } from "./migration-010-hygiene.ts";
import { projectsMigration } from "./migration-011-projects.ts";
import { queuePlacementMigration } from "./migration-012-queue-placement.ts";
import { procurementMigration } from "./migration-013-procurement.ts";
import { claimIdleMigration } from "./migration-014-claim-idle.ts";
import { hourPacksMigration } from "./migration-015-hour-packs.ts";
import { idleSnapshotMigration } from "./migration-016-idle-snapshot.ts";
import { periodTotalsMigration } from "./migration-017-period-totals.ts";
import { doneMarksMigration } from "./migration-018-done-marks.ts";

/** One schema step. `version` is its position in {@link migrations}, starting at 1. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

/** The database was written by a newer gpu-warden; opening it could corrupt data this version does not know. */
export class DatabaseTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly foundVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `${file} has schema version ${foundVersion}, but this gpu-warden knows versions up to ${knownVersion}: ` +
        "upgrade gpu-warden, or point store.path at another file",
    );
    this.name = "DatabaseTooNewError";
  }
}

/**
 * The schema, one numbered step after another; append new steps, never edit a released one.
 *
 * Raw samples are keyed time-major with composite integer keys (see `sample-key.ts`): a poll
 * cycle appends at the right edge of one B-tree, and a GPU's recent history is one key lookup per
 * cycle. No secondary index on raw samples: it would turn appends into random inserts.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "metrics",
    up(db) {
      db.exec(`
        CREATE TABLE meta (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) WITHOUT ROWID;

        -- last_cycle_id and last_ok_ms are written when the host drops out of a cycle or stops
        -- answering; while it is in the latest cycle and answering, that cycle is the truth.
        CREATE TABLE host (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          source TEXT NOT NULL,
          first_seen_ms INTEGER NOT NULL,
          last_cycle_id INTEGER,
          last_ok_ms INTEGER
        );

        CREATE TABLE gpu (
          id INTEGER PRIMARY KEY,
          host_id INTEGER NOT NULL REFERENCES host (id),
          idx INTEGER NOT NULL,
          uuid TEXT,
          model TEXT,
          mem_total_mib REAL,
          mig INTEGER NOT NULL DEFAULT 0,
          first_seen_ms INTEGER NOT NULL,
          UNIQUE (host_id, idx)
        );

        -- One row per poll cycle, committed with its samples: hosts and gpus count its rows.
        CREATE TABLE cycle (
          id INTEGER PRIMARY KEY,
          at_ms INTEGER NOT NULL,
          hosts INTEGER NOT NULL,
          gpus INTEGER NOT NULL
        );
        CREATE INDEX cycle_at_ms ON cycle (at_ms);

        -- id = cycle_id * 2^24 + host_id
        CREATE TABLE host_sample (
          id INTEGER PRIMARY KEY,
          at_ms INTEGER NOT NULL,
          ok INTEGER NOT NULL,
          cause TEXT,
          message TEXT,
          sessions INTEGER,
          cpu_load1 REAL,
          cpu_util_pct REAL
        );

        -- id = cycle_id * 2^24 + gpu_id; a failed poll writes a row of nulls for each known GPU.
        CREATE TABLE gpu_sample (
          id INTEGER PRIMARY KEY,
          util_pct REAL,
          mem_used_mib REAL,
          power_w REAL,
          temp_c REAL
        );

        -- Processes, sessions and containers of the latest answering poll, rewritten only when they change.
        CREATE TABLE evidence (
          host_id INTEGER PRIMARY KEY REFERENCES host (id),
          since_ms INTEGER NOT NULL,
          json TEXT NOT NULL
        );

        CREATE TABLE gpu_hour (
          hour_ms INTEGER NOT NULL,
          gpu_id INTEGER NOT NULL REFERENCES gpu (id),
          util_mean_pct REAL,
          util_max_pct REAL,
          busy_min REAL NOT NULL,
          idle_min REAL NOT NULL,
          unknown_min REAL NOT NULL,
          mem_mean_mib REAL,
          mem_max_mib REAL,
          energy_wh REAL,
          PRIMARY KEY (hour_ms, gpu_id)
        ) WITHOUT ROWID;
      `);
    },
  },
  botStateMigration,
  claimsMigration,
  ledgerMigration,
  reclaimMigration,
  queueMigration,
  priorityMigration,
  reservationsMigration,
  autopilotMigration,
  hygieneMigration,
  projectsMigration,
  queuePlacementMigration,
  procurementMigration,
  claimIdleMigration,
  hourPacksMigration,
  idleSnapshotMigration,
  periodTotalsMigration,
  doneMarksMigration,
];

/**
 * Brings `db` up to the newest version in `steps`, each step in its own IMMEDIATE transaction
 * together with its `PRAGMA user_version`. Throws {@link DatabaseTooNewError} for a database newer
 * than `steps`. Returns the versions applied.
 */
export function migrate(db: Database, steps: readonly Migration[] = migrations): number[] {
  steps.forEach((step, i) => {
    if (step.version !== i + 1)
      throw new Error(`migration ${step.name} has version ${step.version}, expected ${i + 1}`);
  });
  const known = steps.length;
  const applied: number[] = [];
  const current = userVersion(db);
  if (current > known) throw new DatabaseTooNewError(db.name, current, known);
  for (const step of steps.slice(current)) {
    const apply = db.transaction(() => {
      if (userVersion(db) >= step.version) return false;
      step.up(db);
      db.pragma(`user_version = ${step.version}`);
      return true;
    });
    if (apply.immediate()) applied.push(step.version);
  }
  return applied;
}

export function userVersion(db: Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}
