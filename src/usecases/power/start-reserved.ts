import { MINUTE_MS } from "../../shared/clock.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { hostReservation } from "../queue/reservations.ts";
import { latestStart, startIfStopped, stoppedByBot } from "./start-host.ts";

/**
 * Starts each host the bot stopped whose reservation window opens within
 * `policy.start_ahead_minutes` (a window that opened after the stop), for the reservation's holder,
 * once per stop: a start that failed or did not bring the host back is not tried again here.
 */
export function startReserved(deps: ClaimDeps, nowMs: number): void {
  const aheadMs = deps.config.policy.start_ahead_minutes * MINUTE_MS;
  for (const [host, settings] of Object.entries(deps.config.hosts)) {
    if (settings.start === undefined) continue;
    const stop = stoppedByBot(deps, host);
    if (stop === null || latestStart(deps, host)?.stopRunId === stop.id) continue;
    const window = hostReservation(deps, host, aheadMs + 1);
    if (window === null || window.fromMs <= (stop.finishedAtMs ?? stop.startedAtMs)) continue;
    if (window.fromMs - nowMs > aheadMs) continue;
    startIfStopped(deps, host, window.reservation.user, "reservation");
  }
}
