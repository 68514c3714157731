import { countActiveSessions, hostClass } from "../../checks/classify-host.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import { hostSampleAt } from "../../checks/sweep.ts";
import type { LatestObservation } from "../../domain/metrics.ts";
import { slotLabel } from "../../shared/gpu-slot.ts";
import type { HostNowFacts } from "./stop-facts.ts";

/** What the latest observation says right now, for a stop. */
export type HostNow =
  | { kind: "idle" }
  | { kind: "busy" | "in-use" | "no-data" | "suspect"; facts: HostNowFacts; sinceMs: number | null };

/**
 * Re-checks a host at `nowMs` from its latest observation with the checks' classification: busy
 * (a GPU at or above the threshold), in use (an active login session), no data (failed, stale, never
 * seen, or a GPU without a reading) or idle. Pure.
 */
export function assessHostNow(
  host: string,
  latest: LatestObservation | null,
  nowMs: number,
  policy: IdlePolicy,
): HostNow {
  if (latest === null) {
    return {
      kind: "no-data",
      facts: { reason: "no-data", lastOkAtMs: null, nowMs, cause: null },
      sinceMs: null,
    };
  }
  const sample = hostSampleAt(host, latest.observation, nowMs, policy);
  const sinceMs = latest.lastOkAtMs;
  if (!sample.ok) {
    const cause =
      sample.cause === "stale" || sample.cause === "missing" ? null : sample.message.replace(`${host}: `, "");
    return { kind: "no-data", facts: { reason: "no-data", lastOkAtMs: sinceMs, nowMs, cause }, sinceMs };
  }
  const sampleClass = hostClass(sample);
  switch (sampleClass) {
    case "busy": {
      const gpus = sample.gpus
        .filter((gpu) => gpu.class === "busy")
        .sort((a, b) => (b.utilPct ?? 0) - (a.utilPct ?? 0))
        .map((gpu) => ({ slot: slotLabel(gpu.index), utilPct: Math.round(gpu.utilPct ?? 0) }));
      return { kind: "busy", facts: { reason: "busy", gpus }, sinceMs: null };
    }
    case "session": {
      const active = (sample.sessions ?? []).filter(
        (session) => countActiveSessions([session], policy.idleForMinutes) === 1,
      );
      const users = [...new Set(active.map((session) => session.user))];
      const lines = [...new Set(active.map((session) => session.line))].slice(0, 3);
      return { kind: "in-use", facts: { reason: "in-use", users, lines }, sinceMs: null };
    }
    case "unknown": {
      if (sample.gpus.length === 0) return { kind: "no-data", facts: { reason: "no-gpus" }, sinceMs };
      const slots = sample.gpus.filter((gpu) => gpu.class === "unknown").map((gpu) => slotLabel(gpu.index));
      return { kind: "no-data", facts: { reason: "no-reading", slots }, sinceMs };
    }
    case "suspect": {
      const slots = sample.gpus.filter((gpu) => gpu.class === "suspect").map((gpu) => slotLabel(gpu.index));
      return { kind: "suspect", facts: { reason: "suspect", slots }, sinceMs: null };
    }
    case "idle":
      return { kind: "idle" };
    default:
      return sampleClass satisfies never;
  }
}
