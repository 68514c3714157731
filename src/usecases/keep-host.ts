import { HOUR_MS, MINUTE_MS } from "../shared/clock.ts";
import { formatDuration } from "../shared/duration.ts";
import { dayjs } from "../shared/time.ts";
import { localDayNumber, localWhen, mention } from "./action-text.ts";
import { authorityFor, type HostActionDeps, mayAct, refusalText } from "./authorise.ts";
import { unknownHostProblem } from "./stop-host.ts";

/** How long to keep a host: a duration, or until `policy.keep_until_tomorrow_at` on the next local day. */
export type KeepSpan = { kind: "for"; ms: number } | { kind: "tomorrow" };

export interface KeepRequest {
  host: string;
  /** Slack user id. */
  actor: string;
  span: KeepSpan;
  alertId?: number | undefined;
}

export type KeepResult =
  | {
      kind: "kept";
      host: string;
      untilMs: number;
      /** The request went past `policy.max_keep_hours` and was cut to it. */
      capped: boolean;
      /** The host was already kept until then (a double click, two people at once): nothing changed. */
      already: boolean;
      /** For the person who asked. */
      text: string;
    }
  | { kind: "refused"; reason: "unknown-host" | "not-allowed" | "never-stop"; host: string; text: string };

/**
 * When a keep ends, before the cap. `tomorrow` is `atLocal` (`HH:mm`) on the calendar day after
 * today in `zone`, computed from the local date so a DST change in between cannot shift it; a local
 * time that does not exist that day (spring forward) moves forward to the first one that does.
 */
export function keepUntilMs(span: KeepSpan, nowMs: number, zone: string, atLocal: string): number {
  if (span.kind === "for") return nowMs + span.ms;
  const tomorrow = new Date((localDayNumber(nowMs, zone) + 1) * 86_400_000).toISOString().slice(0, 10);
  return dayjs.tz(`${tomorrow} ${atLocal}`, zone).valueOf();
}

/**
 * Keeps (snoozes) a host: no idle alert and no automatic stop until the end of the span, capped at
 * `policy.max_keep_hours`. Allowed for the host's owners, claimants, the cost warden and admins.
 * Writes the snooze, audits it, posts `gpu-a kept by @x until 18:00` in the alert thread and
 * resolves the open idle alert as snoozed. Asking again for the same end (to the minute) while
 * nothing is alerting changes nothing and says so. Synchronous.
 */
export function keepHost(deps: HostActionDeps, request: KeepRequest): KeepResult {
  const { config, state, clock } = deps;
  const { host, actor } = request;
  const nowMs = clock.now();
  const zone = config.team.timezone;
  const unknown = unknownHostProblem(deps, host);
  if (unknown !== null) return { kind: "refused", reason: "unknown-host", host, text: unknown };
  const authority = authorityFor(deps, host, nowMs);
  if (!mayAct(actor, authority)) {
    const text = refusalText(authority, "keep");
    state.audit.record({ atMs: nowMs, actor, action: "keep-refused", host, detail: { text } });
    return { kind: "refused", reason: "not-allowed", host, text };
  }
  if (config.hosts[host]?.never_stop === true) {
    return {
      kind: "refused",
      reason: "never-stop",
      host,
      text: `${host} is marked \`never_stop\`: it is never alerted or stopped, so there is nothing to keep.`,
    };
  }
  const wantedMs = keepUntilMs(request.span, nowMs, zone, config.policy.keep_until_tomorrow_at);
  const maxMs = config.policy.max_keep_hours * HOUR_MS;
  const capped = wantedMs - nowMs > maxMs;
  const untilMs = capped ? nowMs + maxMs : wantedMs;
  const alert = state.alerts.openFor(host, "idle");
  const current = state.snoozes.activeAt(host, nowMs);
  if (alert === null && current !== null && Math.abs(current.untilMs - untilMs) < MINUTE_MS) {
    const by = current.byUser === actor ? "you" : mention(current.byUser);
    return {
      kind: "kept",
      host,
      untilMs: current.untilMs,
      capped,
      already: true,
      text: `${host} is already kept until ${localWhen(current.untilMs, nowMs, zone)} (by ${by}): no idle alerts or automatic stop until then.`,
    };
  }
  const until = `${localWhen(untilMs, nowMs, zone)} (${formatDuration(untilMs - nowMs)})`;
  const cap = capped ? `; capped at ${formatDuration(maxMs)}, the longest keep allowed` : "";
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
    deps.alerts.postInThread(host, `${host} kept by ${mention(actor)} until ${until}${cap}.`);
    if (alert !== null) deps.alerts.resolve(host, "snoozed");
  });
  return {
    kind: "kept",
    host,
    untilMs,
    capped,
    already: false,
    text: `Kept ${host} until ${until}${cap}: no idle alerts or automatic stop until then.`,
  };
}
