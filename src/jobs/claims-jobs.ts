import type { ClaimDeps } from "../usecases/claims/claim-deps.ts";
import { tickClaims } from "../usecases/claims/tick-claims.ts";
import { tickQueue } from "../usecases/queue/queue-tick.ts";
import type { CronJob } from "./schedule-jobs.ts";

/**
 * The claims' jobs on the injected clock. `claims`: expiry, reminders, claimed-but-idle nudges and
 * auto-release, and the waiting list's turn, every minute (resumable). `queue-deadlines`: every
 * 3 s, when a preempted claim's release time or a grant's confirm-by time has come, the waiting
 * list's turn at once, so a holder told "by 14:30" loses the claim within seconds of it, not at the
 * next minute's pass. Both read what is due from the store, so a restart goes on where it was.
 */
export function claimsJobs(deps: ClaimDeps): CronJob[] {
  return [
    {
      name: "claims",
      schedule: "20 * * * * *",
      timezone: "UTC",
      runAtStart: true,
      run: () => {
        tickClaims(deps, deps.clock.now());
      },
    },
    {
      name: "queue-deadlines",
      schedule: "*/3 * * * * *",
      timezone: "UTC",
      run: () => {
        const nowMs = deps.clock.now();
        const { queue } = deps.state;
        if (queue.preempts.dueBy(nowMs).length === 0 && queue.unconfirmedBy(nowMs).length === 0) return;
        tickQueue(deps, nowMs);
      },
    },
  ];
}
