import type { Database } from "better-sqlite3";
import { configSchema } from "../src/config/schema.ts";
import type { GpuReading, HostObservation } from "../src/domain/observation.ts";
import { composeBot } from "../src/main/compose-bot.ts";
import { ManualClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import type { BotStateStore } from "../src/store/bot-state-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import type { ClaimDeps } from "../src/usecases/claims/claim-deps.ts";
import type { Notifier } from "../src/usecases/ports.ts";

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
  const config = configSchema.parse({ slack: { channel: "C0GPU" } });
  const clock = new ManualClock(nowMs);
  const latest = new Map(observations(nowMs).map((observation) => [observation.host, observation]));
  const notifier: Notifier = {
    send: (method, args) => {
      state.outbox.enqueue({ method, args }, clock.now());
    },
  };
  const bot = composeBot({
    config,
    clock,
    db,
    ports: { logger: silentLogger, messages: { notifier }, sources: [], fetch: globalThis.fetch },
  });
  const { state } = bot.stores;
  // NOTE: the grant pass reads the fleet as polled at `nowMs` and leaves alerts alone: both are
  // stand-ins here, as in the benchmark's other process.
  const deps: ClaimDeps = {
    ...bot.deps,
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
  };
  return { deps, db, state };
}
