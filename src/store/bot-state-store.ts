import type { Database } from "better-sqlite3";
import { type AlertStore, createAlertStore } from "./alert-store.ts";
import { type AuditStore, createAuditStore } from "./audit-store.ts";
import { type AutopilotPlanStore, createAutopilotPlanStore } from "./autopilot-plan-store.ts";
import { type BudgetNoticeStore, createBudgetNoticeStore } from "./budget-notice-store.ts";
import { type ClaimIdleStore, createClaimIdleStore } from "./claim-idle-store.ts";
import { type ClaimStore, createClaimStore } from "./claim-store.ts";
import { createDeliveryStore, type DeliveryStore } from "./delivery-store.ts";
import { createDoneMarkStore, type DoneMarkStore } from "./done-mark-store.ts";
import { createIdleSnapshotStore, type IdleSnapshotStore } from "./idle-snapshot-store.ts";
import { createMetaStore, type MetaStore } from "./meta-store.ts";
import { createOutboxStore, type OutboxStore } from "./outbox-store.ts";
import { createProcurementStore, type ProcurementStore } from "./procurement-store.ts";
import { createQueueStore, type QueueStore } from "./queue-store.ts";
import { createReservationStore, type ReservationStore } from "./reservation-store.ts";
import { createSnoozeStore, type SnoozeStore } from "./snooze-store.ts";
import { createStopRunStore, type StopRunStore } from "./stop-run-store.ts";
import { createWorkloadStore, type WorkloadStore } from "./workload-store.ts";

/** The repositories the Slack side uses, over one migrated database. */
export interface BotStateStore {
  alerts: AlertStore;
  outbox: OutboxStore;
  audit: AuditStore;
  snoozes: SnoozeStore;
  /** *Done with mine* on idle alerts. */
  doneMarks: DoneMarkStore;
  claims: ClaimStore;
  /** The claims job's idle stretches per claimed host. */
  claimIdle: ClaimIdleStore;
  /** The idle states the latest sweep left (a restart's starting point). */
  idleSnapshot: IdleSnapshotStore;
  /** The waiting list (`/gpu claim … --wait`). */
  queue: QueueStore;
  /** Reservations (`/gpu reserve`). */
  reservations: ReservationStore;
  stopRuns: StopRunStore;
  /** The autopilot's warned stops. */
  autopilot: AutopilotPlanStore;
  /** The workload on each busy GPU per hour (attributing unclaimed GPU time to projects). */
  workloads: WorkloadStore;
  /** Budget notices sent (once per project, month and level). */
  budgetNotices: BudgetNoticeStore;
  /** Requests for more GPUs (`/gpu request`) and the tracked plans they became. */
  procurement: ProcurementStore;
  deliveries: DeliveryStore;
  meta: MetaStore;
  /** Runs `fn` in one transaction (synchronous: never await inside). */
  transaction<T>(fn: () => T): T;
  /**
   * Rows written through this database connection since it was opened, by anything but the
   * delivery log (which every Slack request writes), the claims job's idle stretches and the idle
   * snapshot: unchanged
   * means nothing a view reads from the database has changed, so a rendering of it can be reused.
   */
  changeCount(): number;
}

export function createBotStateStore(db: Database): BotStateStore {
  const deliveries = createDeliveryStore(db);
  const claimIdle = createClaimIdleStore(db);
  const idleSnapshot = createIdleSnapshotStore(db);
  const totalChanges = db.prepare("SELECT total_changes()").pluck();
  // NOTE: one transaction function for every call (better-sqlite3 builds five wrappers per function).
  const inTransaction = db.transaction(<T>(fn: () => T): T => fn());
  return {
    alerts: createAlertStore(db),
    outbox: createOutboxStore(db),
    audit: createAuditStore(db),
    snoozes: createSnoozeStore(db),
    doneMarks: createDoneMarkStore(db),
    claims: createClaimStore(db),
    claimIdle,
    idleSnapshot,
    queue: createQueueStore(db),
    reservations: createReservationStore(db),
    stopRuns: createStopRunStore(db),
    autopilot: createAutopilotPlanStore(db),
    workloads: createWorkloadStore(db),
    budgetNotices: createBudgetNoticeStore(db),
    procurement: createProcurementStore(db),
    deliveries,
    meta: createMetaStore(db),
    transaction: (fn) => inTransaction.immediate(fn) as ReturnType<typeof fn>,
    changeCount: () =>
      (totalChanges.get() as number) -
      deliveries.rowsChanged() -
      claimIdle.rowsChanged() -
      idleSnapshot.rowsChanged(),
  };
}
