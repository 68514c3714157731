import { nextWorkingDayAfter, type TeamCalendar } from "../../checks/working-hours.ts";
import { HOUR_MS, MINUTE_MS } from "../../shared/clock.ts";
import { localDayNumber, zonedMs } from "../../shared/time.ts";
import {
  authorityFor,
  type HostActionDeps,
  type HostAuthority,
  holdsSomethingOn,
  mayAct,
} from "../authorise.ts";
import { teamCalendarOf } from "../autopilot/autopilot-policy.ts";
import { unknownHostFacts } from "../fleet/known-hosts.ts";
import type { UnknownHost } from "../power/action-text.ts";

/**
 * How long to keep a host: a duration, or until `policy.keep_until_tomorrow_at` on the next working
 * day (the next local day when no team calendar is given).
 */
export type KeepSpan = { kind: "for"; ms: number } | { kind: "tomorrow" };

export interface KeepRequest {
  host: string;
  /** Slack user id. */
  actor: string;
  span: KeepSpan;
  alertId?: number | undefined;
}

/** What a keep did, as data: the surface says it to the person who asked. */
export type KeepResult =
  | {
      kind: "kept";
      host: string;
      untilMs: number;
      /** When the keep was asked for. */
      nowMs: number;
      /** The request went past `policy.max_keep_hours` and was cut to it. */
      capped: boolean;
      /** `policy.max_keep_hours`, in ms. */
      maxMs: number;
      /** The host was already kept until then (a double click, two people at once): nothing changed. */
      already: boolean;
      /** Who holds the keep (the asker, or who kept it first when `already`). */
      byUser: string;
    }
  | { kind: "refused"; reason: "unknown-host"; host: string; unknown: UnknownHost }
  | { kind: "refused"; reason: "not-allowed"; host: string; authority: HostAuthority }
  | { kind: "refused"; reason: "never-stop"; host: string };

/**
 * When a keep ends, before the cap. `tomorrow` is `atLocal` (`HH:mm`) on the calendar day after
 * today in `zone` or, given the team's `calendar`, on the first working day after today (a Keep
 * until tomorrow pressed on a Friday evening or at the weekend runs to Monday morning, not into the
 * weekend when nobody is there to keep it again). Computed from the local date so a DST change in
 * between cannot shift it; a local time that does not exist that day (spring forward) moves forward
 * to the first one that does.
 */
export function keepUntilMs(
  span: KeepSpan,
  nowMs: number,
  zone: string,
  atLocal: string,
  calendar?: TeamCalendar,
): number {
  if (span.kind === "for") return nowMs + span.ms;
  const day =
    calendar === undefined
      ? new Date((localDayNumber(nowMs, zone) + 1) * 86_400_000).toISOString().slice(0, 10)
      : nextWorkingDayAfter(calendar, nowMs);
  return zonedMs(`${day}T${atLocal}`, zone);
}

/** When a keep of `span` asked at `nowMs` ends (before the cap), in the team's calendar. */
function teamKeepUntilMs(config: HostActionDeps["config"], span: KeepSpan, nowMs: number): number {
  const calendar = teamCalendarOf(config);
  return keepUntilMs(span, nowMs, calendar.timezone, config.policy.keep_until_tomorrow_at, calendar);
}

/** When *Keep until tomorrow* pressed at `nowMs` ends (before the cap): the next working day's `keep_until_tomorrow_at`. */
export function keepTomorrowUntilMs(config: HostActionDeps["config"], nowMs: number): number {
  return teamKeepUntilMs(config, { kind: "tomorrow" }, nowMs);
}

/**
 * Keeps (snoozes) a host: no idle alert and no automatic stop until the end of the span, capped at
 * `policy.max_keep_hours`. Allowed for the host's owners, claimants, the cost warden, admins and the
 * people whose processes or sessions are on the host now (`team.logins`).
 * Writes the snooze, audits it, posts `gpu-a kept by @x until 18:00` in the alert thread and
 * resolves the open idle alert as snoozed. Asking again for the same end (to the minute) while
 * nothing is alerting changes nothing and says so. Synchronous.
 */
export function keepHost(deps: HostActionDeps, request: KeepRequest): KeepResult {
  const { config, state, clock } = deps;
  const { host, actor } = request;
  const nowMs = clock.now();
  const unknown = unknownHostFacts(deps, host);
  if (unknown !== null) return { kind: "refused", reason: "unknown-host", host, unknown };
  const authority = authorityFor(deps, host, nowMs);
  if (!mayAct(actor, authority) && !holdsSomethingOn(deps, host, actor)) {
    const { owners, claimants, warden, admins } = authority;
    const detail = { reason: "not-allowed", owners, claimants, warden, admins };
    state.audit.record({ atMs: nowMs, actor, action: "keep-refused", host, detail });
    return { kind: "refused", reason: "not-allowed", host, authority };
  }
  if (config.hosts[host]?.never_stop === true) return { kind: "refused", reason: "never-stop", host };
  const wantedMs = teamKeepUntilMs(config, request.span, nowMs);
  const maxMs = config.policy.max_keep_hours * HOUR_MS;
  const capped = wantedMs - nowMs > maxMs;
  const untilMs = capped ? nowMs + maxMs : wantedMs;
  const alert = state.alerts.openFor(host, "idle");
  const current = state.snoozes.activeAt(host, nowMs);
  if (alert === null && current !== null && Math.abs(current.untilMs - untilMs) < MINUTE_MS) {
    const { untilMs: keptUntilMs, byUser } = current;
    return { kind: "kept", host, untilMs: keptUntilMs, nowMs, capped, maxMs, already: true, byUser };
  }
  state.transaction(() => {
    state.snoozes.set({ host, untilMs, byUser: actor, setAtMs: nowMs });
    state.audit.record({
      atMs: nowMs,
      actor,
      action: "keep",
      host,
      detail: {
        untilMs,
        wantedUntilMs: wantedMs,
        capped,
        span: request.span.kind === "for" ? request.span.ms : "tomorrow",
        alertId: request.alertId ?? alert?.id ?? null,
      },
    });
    deps.alerts.postNote(host, {
      kind: "kept",
      host,
      user: actor,
      untilMs,
      nowMs,
      capMs: capped ? maxMs : null,
    });
    if (alert !== null) deps.alerts.resolve(host, "snoozed");
  });
  return { kind: "kept", host, untilMs, nowMs, capped, maxMs, already: false, byUser: actor };
}
