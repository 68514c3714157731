import { DAY_MS } from "../shared/clock.ts";
import { type ReclaimDeps, reviewReclaims } from "../usecases/warden/review-reclaims.ts";
import type { PersistedJob } from "./slot-runner.ts";

/**
 * The daily reclaim review at `reclaim.review_time` (team time zone): opens, clears and brings
 * reclaim cases to the warden. Once a day; a missed day is caught up (within 2 days). Each change
 * is committed with its messages by the review itself, so the slot is recorded after it.
 */
export function reclaimReviewJob(deps: ReclaimDeps): PersistedJob {
  const [hours, minutes] = deps.config.reclaim.review_time.split(":").map(Number) as [number, number];
  return {
    name: "reclaim-review",
    schedule: `${minutes} ${hours} * * *`,
    timezone: deps.config.team.timezone,
    catchUp: "once",
    catchUpWithinMs: 2 * DAY_MS,
    run: () => {
      reviewReclaims(deps);
    },
  };
}
