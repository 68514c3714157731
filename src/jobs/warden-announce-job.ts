import { DAY_MS } from "../shared/clock.ts";
import type { ProjectReportDeps } from "../usecases/ledger/project-report.ts";
import { type AnnounceWardenDeps, announceWarden } from "../usecases/warden/announce-warden.ts";
import type { PersistedJob } from "./slot-runner.ts";

/**
 * On the 1st of every month at `warden.announce_time` (team time zone): the new cost warden is
 * announced in the channel and gets the checklist, and the month just ended is posted split among
 * projects with its CSV. Exactly once a month; after downtime the month's announcement is caught up
 * (marked late) until the 28th.
 */
export function wardenAnnounceJob(deps: AnnounceWardenDeps, projectReport?: ProjectReportDeps): PersistedJob {
  const [hours, minutes] = deps.config.warden.announce_time.split(":").map(Number) as [number, number];
  return {
    name: "warden-announce",
    schedule: `${minutes} ${hours} 1 * *`,
    timezone: deps.config.team.timezone,
    catchUp: "once",
    catchUpWithinMs: 27 * DAY_MS,
    run: (slot) => {
      announceWarden(deps, slot, projectReport);
    },
  };
}
