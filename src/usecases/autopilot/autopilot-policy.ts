import type { AutopilotPolicy } from "../../checks/autopilot-plan.ts";
import type { TeamCalendar } from "../../checks/working-hours.ts";
import type { Config } from "../../config/schema.ts";

const ISO_WEEKDAYS = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 } as const;

/**
 * The autopilot's rules for `host`: on where the host's `autopilot` (default: the fleet's
 * `policy.autopilot.enabled`) is on and the host has a `stop` action, is not `never_stop` and has no
 * `auto_stop` of its own (that older countdown stops whatever is on the host; the autopilot stands aside).
 */
export function autopilotPolicyOf(config: Pick<Config, "policy" | "hosts">, host: string): AutopilotPolicy {
  const fleet = config.policy.autopilot;
  const settings = config.hosts[host];
  const enabled =
    (settings?.autopilot ?? fleet.enabled) &&
    settings?.stop !== undefined &&
    !settings.never_stop &&
    settings.auto_stop === undefined;
  return {
    enabled,
    emptyMinutes: fleet.empty_minutes,
    staleHours: fleet.stale_hours,
    warningMinutes: fleet.warning_minutes,
  };
}

// NOTE: the calendar is read several times a minute (claims job, autopilot, alerts); built once per
// team section (the config is never changed in place).
const calendars = new WeakMap<Config["team"], { of: Config["team"]; calendar: TeamCalendar }>();

/** The team's working week (`team.working_hours`, `team.holidays`) in its time zone. Shared: read it only. */
export function teamCalendarOf(config: Pick<Config, "team">): TeamCalendar {
  const { team } = config;
  const known = calendars.get(team);
  if (
    known !== undefined &&
    known.of.working_hours === team.working_hours &&
    known.of.holidays === team.holidays &&
    known.of.timezone === team.timezone
  )
    return known.calendar;
  const calendar = buildCalendar(team);
  calendars.set(team, { of: { ...team }, calendar });
  return calendar;
}

function buildCalendar(team: Config["team"]): TeamCalendar {
  const { working_hours: hours, holidays, timezone } = team;
  const minute = (time: string) => {
    const [h, m] = time.split(":").map(Number) as [number, number];
    return h * 60 + m;
  };
  return {
    timezone,
    workingDays: hours.days.map((day) => ISO_WEEKDAYS[day]),
    fromMinute: minute(hours.from),
    toMinute: minute(hours.to),
    holidays,
  };
}
