import { claimIdleStartMs } from "../../checks/claim-due.ts";
import type { Snooze } from "../../domain/snooze.ts";
import type { AlertRun } from "../alerts/idle-alert-run.ts";
import { reservedSoonHosts } from "../queue/reservations.ts";

/** What the autopilot looks up per host, read for the whole fleet once per poll. */
export interface AutopilotLookups {
  /** The host's open idle alert's id, if any. */
  alertIdOf(host: string): number | null;
  /** Who holds a claim on the host now, once each, in the order they claimed. */
  claimantsOf(host: string): string[];
  /** The latest instant a claim on the host now was made or confirmed (*Still using it*); `null`: none. */
  claimedSinceMs(host: string): number | null;
  /** Whether a reservation window of the host opens within the hour (or is open). */
  reservedSoon(host: string): boolean;
  /** Until when someone kept the host; `null`: nobody. */
  keptUntilMs(host: string): number | null;
  /** The Keep in force on the host; `null`: none. */
  keepOf(host: string): Snooze | null;
}

/**
 * The open idle alerts, claims, keeps and reservations at `nowMs`, each in one read: the autopilot's
 * pass acts on one host at a time and never changes another host's, so per-host reads would only
 * repeat these.
 */
export function autopilotLookups(run: AlertRun, nowMs: number): AutopilotLookups {
  const { store } = run;
  const alerts = new Map<string, number>();
  for (const alert of store.alerts.allOpen()) if (alert.kind === "idle") alerts.set(alert.host, alert.id);
  const claims = new Map<string, Array<{ id: number; user: string }>>();
  const claimedSince = new Map<string, number>();
  for (const claim of store.claims.activeAt(nowMs)) {
    const sinceMs = claimIdleStartMs(claim);
    claimedSince.set(claim.host, Math.max(sinceMs, claimedSince.get(claim.host) ?? sinceMs));
    const list = claims.get(claim.host);
    if (list === undefined) claims.set(claim.host, [claim]);
    else list.push(claim);
  }
  const claimants = new Map(
    [...claims].map(([host, list]) => [
      host,
      [...new Set(list.sort((a, b) => a.id - b.id).map((claim) => claim.user))],
    ]),
  );
  const kept = new Map(store.snoozes.allActiveAt(nowMs).map((snooze) => [snooze.host, snooze]));
  const reserved = reservedSoonHosts(run.deps);
  return {
    alertIdOf: (host) => alerts.get(host) ?? null,
    claimantsOf: (host) => [...(claimants.get(host) ?? [])],
    claimedSinceMs: (host) => claimedSince.get(host) ?? null,
    reservedSoon: (host) => reserved.has(host),
    keptUntilMs: (host) => kept.get(host)?.untilMs ?? null,
    keepOf: (host) => kept.get(host) ?? null,
  };
}
