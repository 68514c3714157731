import type { Config } from "../../config/schema.ts";
import type { Clock } from "../../shared/clock.ts";
import type { AuditStore } from "../../store/audit-store.ts";
import type { CostStores } from "../../store/cost-stores.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import { catchUpRollups } from "../ledger/catch-up-rollups.ts";
import type { LedgerDeps } from "../ledger/update-ledger.ts";
import { createWardenRotation, type WardenRotation } from "./rotate-warden.ts";
import type { ReclaimLookup } from "./warden-checklist.ts";

/** What `/gpu report`, `/gpu warden` and the warden's checklist need besides the host actions' deps. */
export interface CostWardenDeps {
  /** The daily cost ledger over the bot's store. */
  costLedger: LedgerDeps;
  /** The monthly cost warden; pass the same object as the `warden` lookup. */
  wardens: WardenRotation;
  /** Pending reclaim decisions for the checklist; `null` without a reclaim workflow. */
  pendingReclaims: ReclaimLookup | null;
}

/** The cost ledger and the warden rotation over the stores. */
export function costWardenDepsOf(input: {
  config: Config;
  metrics: LedgerDeps["metrics"] & Pick<MetricsStore, "hosts" | "rollup">;
  stores: CostStores;
  audit: Pick<AuditStore, "record">;
  clock: Clock;
  pendingReclaims: ReclaimLookup | null;
}): CostWardenDeps {
  const { config, stores, clock } = input;
  return {
    costLedger: {
      config,
      metrics: input.metrics,
      ledger: stores.ledger,
      rolledUpToMs: stores.rolledUpToMs,
      clock,
      rollUp: () => catchUpRollups(input.metrics, config, clock),
    },
    wardens: createWardenRotation({ config, store: stores.wardens, audit: input.audit }),
    pendingReclaims: input.pendingReclaims,
  };
}
