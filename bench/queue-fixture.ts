import type { Database } from "better-sqlite3";
import { createReaders } from "../src/bot/readers.ts";
import { botWords } from "../src/bot/views/renderers.ts";
import { configSchema } from "../src/config/schema.ts";
import type { GpuReading, HostObservation } from "../src/domain/observation.ts";
import { ManualClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { type BotStateStore, createBotStateStore } from "../src/store/bot-state-store.ts";
import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { idlePolicyOf } from "../src/usecases/alert-policy.ts";
import type { ClaimDeps } from "../src/usecases/claim-deps.ts";

// The queue benchmark's fleet and deps, shared by the benchmark and its concurrent grant passes
// (bench/queue-pass.ts, another process on the same SQLite file): 125 hosts × 8 GPUs, A100s on even
// hosts and H100s on odd ones, every GPU idle (a fresh reading at 0 %).
export const HOSTS = 125;
export const GPUS_PER_HOST = 8;
export const T0 = Date.UTC(2026, 0, 6, 9, 0);

const MODELS = ["NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"] as const;

export const hostName = (h: number): string => `gpu-${String(h).padStart(3, "0")}`;

export function observations(atMs: number): HostObservation[] {
  return Array.from({ length: HOSTS }, (_, h) => {
    const gpus: GpuReading[] = Array.from({ length: GPUS_PER_HOST }, (_, index) => ({
      index,
      uuid: `GPU-${h}-${index}`,
      model: MODELS[h % 2] ?? null,
      utilPct: 0,
      memUsedMiB: 0,
      memTotalMiB: 81_920,
      powerW: 60,
      tempC: 30,
      mig: false,
      processes: [],
    }));
    const observation: HostObservation = {
      host: hostName(h),
      source: "ssh",
      atMs,
      ok: true,
      gpus,
      sessions: [],
      cpuLoad1: 0.1,
      cpuUtilPct: 1,
      containers: [],
    };
    return observation;
  });
}

/** Claim deps over the SQLite file at `path`, on a manual clock at `nowMs`, the fleet read at `nowMs`. */
export function queueDeps(
  path: string,
  nowMs: number,
): { deps: ClaimDeps; db: Database; state: BotStateStore } {
  const db = openDatabase(path);
  const state = createBotStateStore(db);
  const metrics = createMetricsStore(db);
  const config = configSchema.parse({ slack: { channel: "C0GPU" } });
  const words = botWords(createReaders(config.team));
  const clock = new ManualClock(nowMs);
  const latest = new Map(observations(nowMs).map((observation) => [observation.host, observation]));
  const deps: ClaimDeps = {
    config,
    idlePolicy: idlePolicyOf(config),
    state,
    fleet: {
      hosts: () => [...latest.keys()],
      latest: (host) => {
        const observation = latest.get(host);
        return observation === undefined ? null : { observation, lastOkAtMs: nowMs };
      },
      state: () => null,
    },
    alerts: {
      refresh: () => {},
      resolve: () => {},
      postInThread: () => {},
      postNote: () => {},
      tell: () => {},
    },
    warden: { current: () => null },
    claimWords: words.claimWords,
    clock,
    logger: silentLogger,
    notifier: {
      send: (method, args) => {
        state.outbox.enqueue({ method, args }, clock.now());
      },
    },
    metrics,
  };
  return { deps, db, state };
}
