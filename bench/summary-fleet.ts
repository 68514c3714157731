import type { Config } from "../src/config/schema.ts";
import { configSchema } from "../src/config/schema.ts";
import type { GpuReading, HostObservation, SourceKind } from "../src/domain/observation.ts";
import { HOUR_MS } from "../src/shared/clock.ts";
import { createAuditStore } from "../src/store/audit-store.ts";
import type { ClaimStore } from "../src/store/claim-store.ts";
import type { MetricsStore } from "../src/store/metrics-types.ts";
import type { openDatabase } from "../src/store/open-database.ts";
import { summaryPeriod } from "../src/usecases/ledger/build-summary.ts";
import { unitHash } from "./unit-hash.ts";

// The fleet of the `summary` benchmark, shared with `scale` (bench/scale-summary.ts): its config (owned
// and cloud prices, a valley tariff) and 28 days of hourly polls before a summary slot, written through
// writeCycle + rollup, with claims, stops and snoozes.

/** GPUs per host. */
export const SUMMARY_GPUS = 8;
/** The team's time zone and currency. */
export const SUMMARY_ZONE = "Europe/Berlin";

/**
 * The config the summary reads: Berlin, euros, a valley tariff; every 4th host paid by the hour (every
 * 8th rented), the others bought. `extra` adds keys (the `scale` run's `sources`).
 */
export function summaryFleetConfig(names: readonly string[], extra: Record<string, unknown> = {}): Config {
  return configSchema.parse({
    ...extra,
    team: { timezone: SUMMARY_ZONE, currency: "EUR" },
    costs: {
      electricity: {
        price_per_kwh: 0.32,
        windows: [{ name: "valley", from: "22:00", to: "06:00", price_per_kwh: 0.18 }],
      },
    },
    hosts: Object.fromEntries(
      names.map((name, h) => [
        name,
        h % 4 === 0 ? { cost_per_hour: 24, rented: h % 8 === 0 } : { purchase_price: 250_000 },
      ]),
    ),
  });
}

/** One poll of every host at `atMs`: busy in 6-hour spells, every 17th host timing out some days. */
function observe(names: readonly string[], source: SourceKind, atMs: number): HostObservation[] {
  const hour = Math.floor(atMs / HOUR_MS);
  return names.map((host, h): HostObservation => {
    if (h % 17 === 5 && unitHash(h, Math.floor(hour / 24)) < 0.2) {
      return { host, source, atMs, ok: false, cause: "timeout", message: `${host}: timed out` };
    }
    const gpus: GpuReading[] = Array.from({ length: SUMMARY_GPUS }, (_, index) => {
      const busy = unitHash(h * SUMMARY_GPUS + index, Math.floor(hour / 6)) < (h % 3 === 0 ? 0.1 : 0.6);
      return {
        index,
        uuid: `GPU-${h}-${index}`,
        model: "NVIDIA H100 80GB HBM3",
        utilPct: busy ? 60 + 40 * unitHash(index, hour) : 2 * unitHash(h, hour),
        memUsedMiB: busy ? 40_000 : 0,
        memTotalMiB: 81_559,
        powerW: busy ? 550 : 70,
        tempC: 40,
        mig: false,
        processes: [],
      };
    });
    return {
      host,
      source,
      atMs,
      ok: true,
      gpus,
      sessions: source === "prometheus" ? null : [],
      cpuLoad1: 1,
      cpuUtilPct: 5,
      containers: [],
    };
  });
}

/** What {@link fillSummaryStore} writes into. */
export interface SummaryStoreParts {
  db: ReturnType<typeof openDatabase>;
  metrics: MetricsStore;
  claims: Pick<ClaimStore, "add">;
  config: Config;
}

/**
 * Hourly polls of `names` from the start of the period before the summary period ending at `slotMs`
 * (the trend's) to `slotMs`, 60 claims with their stops and keeps in the period, then the rollups
 * (and their hour packs) up to 3 h past the slot. `source`: what the hosts are polled by.
 */
export function fillSummaryStore(
  parts: SummaryStoreParts,
  names: readonly string[],
  slotMs: number,
  source: SourceKind = "ssh",
): void {
  const { db, metrics, claims, config } = parts;
  const period = summaryPeriod(slotMs, config.team.timezone);
  const fromMs = summaryPeriod(period.fromMs, config.team.timezone).fromMs - HOUR_MS;
  for (let atMs = Math.floor(fromMs / HOUR_MS) * HOUR_MS; atMs < slotMs + HOUR_MS; atMs += HOUR_MS) {
    metrics.writeCycle(observe(names, source, atMs), atMs);
  }
  const audit = createAuditStore(db);
  for (let i = 0; i < 60; i++) {
    const startMs = period.fromMs + i * 5 * HOUR_MS;
    claims.add({
      host: names[i % names.length]!,
      gpuIndex: i % 3 === 0 ? null : i % SUMMARY_GPUS,
      user: `U${String(i % 20).padStart(6, "0")}`,
      fromMs: startMs,
      untilMs: startMs + 8 * HOUR_MS,
      note: "",
    });
    audit.record({
      atMs: startMs + HOUR_MS,
      actor: `U${String(i % 20).padStart(6, "0")}`,
      action: i % 2 === 0 ? "stop" : "keep",
      host: names[(i * 7) % names.length]!,
      detail: { untilMs: startMs + 5 * HOUR_MS },
    });
  }
  rollUpSummaryStore(metrics, config, slotMs);
}

/** Rolls up (and packs) every hour up to 3 h past `slotMs`; on a kept store from before schema step 15 this packs its hours. */
export function rollUpSummaryStore(metrics: MetricsStore, config: Config, slotMs: number): void {
  while (!metrics.rollup(slotMs + 3 * HOUR_MS, config.policy.idle_util_pct, 1_000).complete) {}
}
