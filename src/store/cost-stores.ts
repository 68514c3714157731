import type { Database } from "better-sqlite3";
import { createJobRunStore, type JobRunStore } from "./job-run-store.ts";
import { createLedgerStore, type LedgerStore } from "./ledger-store.ts";
import { createMetaStore } from "./meta-store.ts";
import { ROLLED_UP_TO_KEY } from "./rollup.ts";
import { createWardenStore, type WardenStore } from "./warden-store.ts";

/** The repositories of the cost ledger, the warden rotation and the persisted jobs, over one database. */
export interface CostStores {
  ledger: LedgerStore;
  wardens: WardenStore;
  jobRuns: JobRunStore;
  /** Every clock hour before this instant is rolled up; `null` before the first rollup. */
  rolledUpToMs(): number | null;
}

export function createCostStores(db: Database): CostStores {
  const meta = createMetaStore(db);
  return {
    ledger: createLedgerStore(db),
    wardens: createWardenStore(db),
    jobRuns: createJobRunStore(db),
    rolledUpToMs: () => {
      const value = meta.get(ROLLED_UP_TO_KEY);
      return value === null ? null : Number(value);
    },
  };
}
