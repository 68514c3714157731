import type { Database } from "better-sqlite3";
import type { Config } from "../../src/config/schema.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { type AlertRun, createAlertRun } from "../../src/usecases/alerts/idle-alert-run.ts";
import type { IdleAlertsDeps } from "../../src/usecases/alerts/idle-alerts.ts";
import { migratedStoreAt } from "./migrated-store.ts";

/**
 * An alert run over the store at `path` at `nowMs` (its metrics and state, a notifier that drops what
 * it is given, no owners), for what rebuilds and snapshots idle states; the store closes after `use`.
 * A store that does not exist yet starts as a copy of one migrated once per process.
 */
export function withAlertRun<T>(
  path: string,
  config: Config,
  nowMs: number,
  use: (run: AlertRun, db: Database) => T,
): T {
  const db = openDatabase(migratedStoreAt(path));
  try {
    const deps = {
      config,
      metrics: createMetricsStore(db),
      state: createBotStateStore(db),
      notifier: { send() {} },
      clock: new ManualClock(nowMs),
      logger: silentLogger,
      owners: () => [],
    } as unknown as IdleAlertsDeps;
    return use(createAlertRun(deps), db);
  } finally {
    db.close();
  }
}
