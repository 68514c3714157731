import { holdsNothing } from "../../checks/classify-host.ts";
import { hostCostBasis, hostHourSplit } from "../../checks/cost-model.ts";
import { startAheadSpan, usedEveryRecentDay, usualDaysFromMs } from "../../checks/start-ahead.ts";
import { tariffOf } from "../../checks/tariff-price.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { assessHostNow } from "../power/assess-host-now.ts";
import { latestStart, startIfStopped, stoppedByBot } from "../power/start-host.ts";
import { autopilotPolicyOf, teamCalendarOf } from "./autopilot-policy.ts";

/**
 * The start-ahead (`policy.autopilot.start_ahead`): within `minutes` before working hours begin on a
 * working day, among the hosts the bot stopped (with a `start` action and the autopilot on, each
 * started at most once per stop):
 * - `pick: cheapest`: when a GPU of the fleet was busy in working hours on each of the last
 *   `usual_days` working days and no host reports a GPU with nothing on it, the one host whose hour
 *   on costs least (what a stop saves) is started, once a morning;
 * - `pick: usual`: each host that was busy in working hours on each of the last `usual_days` working
 *   days is started.
 * Each start is said in the host's alert thread; the host is also kept (by the bot, audited)
 * `keep_minutes` into those working hours (with `keep`, until they end), so that the autopilot does
 * not stop it again before its people arrive.
 */
export function startAhead(deps: ClaimDeps, nowMs: number): void {
  const rules = deps.config.policy.autopilot.start_ahead;
  if (!rules.enabled) return;
  const calendar = teamCalendarOf(deps.config);
  const span = startAheadSpan(calendar, nowMs, rules.minutes);
  if (span === null) return;
  const fromMs = usualDaysFromMs(calendar, span, rules.usual_days);
  const expected = (host?: string) =>
    usedEveryRecentDay(
      calendar,
      span,
      deps.metrics.rollupsBetween(fromMs, span.fromMs, host),
      rules.usual_days,
    );
  const stopped = startableHosts(deps);
  const picked =
    rules.pick === "usual"
      ? stopped.filter((host) => expected(host))
      : morningHost(deps, stopped, span.fromMs - rules.minutes * MINUTE_MS, nowMs, () => expected());
  for (const host of picked) {
    const began = startIfStopped(deps, host, null, rules.pick === "usual" ? "usual" : "morning");
    const untilMs = rules.keep ? span.toMs : span.fromMs + rules.keep_minutes * MINUTE_MS;
    if (began.kind === "begun" && untilMs > span.fromMs) keepUntil(deps, host, untilMs, nowMs);
  }
}

/** The hosts the start-ahead may start: stopped by the bot, not started since, with a `start` action and the autopilot on. */
function startableHosts(deps: ClaimDeps): string[] {
  return Object.entries(deps.config.hosts)
    .filter(([host, settings]) => {
      if (settings.start === undefined || !autopilotPolicyOf(deps.config, host).enabled) return false;
      const stop = stoppedByBot(deps, host);
      return stop !== null && latestStart(deps, host)?.stopRunId !== stop.id;
    })
    .map(([host]) => host);
}

/**
 * `pick: cheapest`: the host to start for the team's morning, or none: none when a host was started
 * since `windowFromMs` (one a morning), when a host reports a free GPU, or when the fleet was not
 * busy on each recent working day (`teamExpected`).
 */
function morningHost(
  deps: ClaimDeps,
  stopped: readonly string[],
  windowFromMs: number,
  nowMs: number,
  teamExpected: () => boolean,
): string[] {
  if (stopped.length === 0) return [];
  const hosts = Object.keys(deps.config.hosts);
  if (hosts.some((host) => (latestStart(deps, host)?.startedAtMs ?? -1) >= windowFromMs)) return [];
  if (hosts.some((host) => hasFreeGpu(deps, host, nowMs)) || !teamExpected()) return [];
  const saves = (host: string) => stopSavesPerHour(deps, host, nowMs) ?? Number.POSITIVE_INFINITY;
  const cheapest = [...stopped].sort((a, b) => saves(a) - saves(b) || a.localeCompare(b))[0];
  return cheapest === undefined ? [] : [cheapest];
}

/** The host reports now (not stopped, readings fresh) and a GPU of it has nothing on it. */
function hasFreeGpu(deps: ClaimDeps, host: string, nowMs: number): boolean {
  const latest = deps.fleet.latest(host);
  if (latest === null || !latest.observation.ok || stoppedByBot(deps, host) !== null) return false;
  if (assessHostNow(host, latest, nowMs, deps.idlePolicy).kind === "no-data") return false;
  return latest.observation.gpus.some(holdsNothing);
}

/** What a stop of the host saves per hour at `nowMs` (cloud price, a bought host's power); `null`: no price. */
function stopSavesPerHour(deps: ClaimDeps, host: string, nowMs: number): number | null {
  const { config } = deps;
  const tariff = tariffOf(config.costs.electricity, config.team.timezone);
  return (
    hostHourSplit(hostCostBasis(config.hosts[host], config.costs), tariff, nowMs)?.stoppablePerHour ?? null
  );
}

function keepUntil(deps: ClaimDeps, host: string, untilMs: number, nowMs: number): void {
  const { state } = deps;
  const current = state.snoozes.activeAt(host, nowMs);
  if (current !== null && current.untilMs >= untilMs) return;
  state.transaction(() => {
    state.snoozes.set({ host, untilMs, byUser: BOT_ACTOR, setAtMs: nowMs });
    state.audit.record({
      atMs: nowMs,
      actor: BOT_ACTOR,
      action: "keep",
      host,
      detail: { untilMs, reason: "start-ahead: expected in working hours" }, // words-ok: audit reason code
    });
  });
}
