import {
  startAheadSpan,
  usedEveryRecentDay,
  usualDaysFromMs,
  type WorkingSpan,
} from "../../checks/start-ahead.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { latestStart, startIfStopped, stoppedByBot } from "../power/start-host.ts";
import { autopilotPolicyOf, teamCalendarOf } from "./autopilot-policy.ts";

/**
 * The start-ahead (`policy.autopilot.start_ahead`): within `minutes` before working hours begin on a
 * working day, each host the bot stopped (with a `start` action and the autopilot on) that was busy in
 * working hours on each of the last `usual_days` working days is started, once per stop, with the
 * start said in its alert's thread; with `keep`, it is also kept (by the bot, audited) until those
 * working hours end, so that the autopilot does not stop it again before its people arrive.
 */
export function startAhead(deps: ClaimDeps, nowMs: number): void {
  const rules = deps.config.policy.autopilot.start_ahead;
  if (!rules.enabled) return;
  const calendar = teamCalendarOf(deps.config);
  const span = startAheadSpan(calendar, nowMs, rules.minutes);
  if (span === null) return;
  const fromMs = usualDaysFromMs(calendar, span, rules.usual_days);
  for (const [host, settings] of Object.entries(deps.config.hosts)) {
    if (settings.start === undefined || !autopilotPolicyOf(deps.config, host).enabled) continue;
    const stop = stoppedByBot(deps, host);
    if (stop === null || latestStart(deps, host)?.stopRunId === stop.id) continue;
    const rollups = deps.metrics.rollupsBetween(fromMs, span.fromMs, host);
    if (!usedEveryRecentDay(calendar, span, rollups, rules.usual_days)) continue;
    const began = startIfStopped(deps, host, null, "usual");
    if (began.kind === "begun" && rules.keep) keepForTheDay(deps, host, span, nowMs);
  }
}

function keepForTheDay(deps: ClaimDeps, host: string, span: WorkingSpan, nowMs: number): void {
  const { state } = deps;
  const current = state.snoozes.activeAt(host, nowMs);
  if (current !== null && current.untilMs >= span.toMs) return;
  state.transaction(() => {
    state.snoozes.set({ host, untilMs: span.toMs, byUser: BOT_ACTOR, setAtMs: nowMs });
    state.audit.record({
      atMs: nowMs,
      actor: BOT_ACTOR,
      action: "keep",
      host,
      detail: { untilMs: span.toMs, reason: "start-ahead: used every recent working day" }, // words-ok: audit reason code
    });
  });
}
