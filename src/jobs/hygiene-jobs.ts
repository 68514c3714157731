import { slotsBetween } from "../checks/cadence.ts";
import type { Config } from "../config/schema.ts";
import { DAY_MS, MINUTE_MS } from "../shared/clock.ts";
import { summaryCadence } from "../usecases/ledger/build-summary.ts";
import {
  postHygieneSection,
  type ReviewHygieneDeps,
  reviewHygiene,
} from "../usecases/warden/review-hygiene.ts";
import type { PersistedJob } from "./slot-runner.ts";

const CRON_WEEKDAY = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
} as const;

/** The hygiene section follows the summary by this long, so it reads after it in the channel. */
export const HYGIENE_SECTION_AFTER_MS = 5 * MINUTE_MS;

/**
 * Weekly at `hygiene.weekday` `hygiene.time` (team time zone): every host's hygiene checks; what is
 * new or changed goes to the cost warden once. A missed week is caught up once within 7 days.
 */
export function hygieneJob(
  deps: ReviewHygieneDeps & { config: Pick<Config, "hygiene" | "team"> },
): PersistedJob {
  const { hygiene } = deps.config;
  const [hours, minutes] = hygiene.time.split(":").map(Number) as [number, number];
  return {
    name: "hygiene",
    schedule: hygiene.enabled ? `${minutes} ${hours} * * ${CRON_WEEKDAY[hygiene.weekday]}` : () => [],
    timezone: deps.config.team.timezone,
    catchUp: "once",
    catchUpWithinMs: 7 * DAY_MS,
    run: async (slot) => {
      await reviewHygiene(deps, slot);
    },
  };
}

/** The biweekly summary's hygiene section: the open items the summary has not shown, once, after it. */
export function hygieneSummaryJob(
  deps: Parameters<typeof postHygieneSection>[0] & {
    config: Parameters<typeof postHygieneSection>[0]["config"] & Pick<Config, "summary" | "hygiene">;
  },
): PersistedJob {
  const cadence = summaryCadence(deps.config);
  const offset = HYGIENE_SECTION_AFTER_MS;
  return {
    name: "summary-hygiene",
    schedule: (afterMs, uptoMs) =>
      deps.config.summary.enabled && deps.config.hygiene.enabled
        ? slotsBetween(cadence, afterMs - offset, uptoMs - offset).map((ms) => ms + offset)
        : [],
    timezone: deps.config.team.timezone,
    catchUp: "once",
    catchUpWithinMs: 14 * DAY_MS,
    run: (slot) => {
      postHygieneSection(deps, { atMs: slot.atMs - offset, commit: (effect) => slot.commit(effect) });
    },
  };
}
