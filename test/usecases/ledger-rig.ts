import type { Database } from "better-sqlite3";
import { type Config, configSchema } from "../../src/config/schema.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { createLedgerStore, type LedgerStore } from "../../src/store/ledger-store.ts";
import { createMetaStore } from "../../src/store/meta-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { ROLLED_UP_TO_KEY } from "../../src/store/rollup.ts";
import type { LedgerDeps } from "../../src/usecases/ledger/update-ledger.ts";
import { gpu } from "../store/store-fixtures.ts";

export const STEP_MS = 10 * 60_000;

/**
 * A real SQLite file with history written through `writeCycle` every 10 minutes and rolled up, and
 * the ledger's deps over it (config parsed by the real schema, a manual clock).
 */
export class LedgerRig {
  readonly db: Database;
  readonly metrics: MetricsStore;
  readonly ledger: LedgerStore;
  readonly clock: ManualClock;
  config: Config;

  constructor(file: string, rawConfig: Record<string, unknown>, nowMs: number) {
    this.db = openDatabase(file);
    this.metrics = createMetricsStore(this.db, { sampleSpanMaxMs: 2 * STEP_MS });
    this.ledger = createLedgerStore(this.db);
    this.clock = new ManualClock(nowMs);
    this.config = configSchema.parse(rawConfig);
  }

  get deps(): LedgerDeps {
    const meta = createMetaStore(this.db);
    return {
      config: this.config,
      metrics: this.metrics,
      ledger: this.ledger,
      rolledUpToMs: () => {
        const value = meta.get(ROLLED_UP_TO_KEY);
        return value === null ? null : Number(value);
      },
      clock: this.clock,
    };
  }

  /**
   * One cycle every 10 minutes in `[fromMs, toMs)` (in one transaction: the same rows, one commit),
   * then a rollup up to the clock.
   */
  write(fromMs: number, toMs: number, observe: (atMs: number) => HostObservation[]): void {
    this.db.transaction(() => {
      for (let atMs = fromMs; atMs < toMs; atMs += STEP_MS) this.metrics.writeCycle(observe(atMs), atMs);
    })();
    while (!this.metrics.rollup(this.clock.now(), this.config.policy.idle_util_pct, 10_000).complete) {}
  }

  close(): void {
    this.db.close();
  }
}

/** A host whose GPUs show these utilisations, each drawing `powerW` (null: no power reading). */
export function host(
  name: string,
  atMs: number,
  utilPcts: number[],
  powerW: number | null = 100,
): HostObservation {
  return {
    host: name,
    source: "ssh",
    atMs,
    ok: true,
    gpus: utilPcts.map((utilPct, index) => gpu(index, { utilPct, powerW })),
    sessions: [],
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  };
}

export function down(name: string, atMs: number): HostObservation {
  return { host: name, source: "ssh", atMs, ok: false, cause: "timeout", message: `${name}: timed out` };
}
