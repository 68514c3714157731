import {
  ACTION_IDS,
  claimIdsValueSchema,
  hostActionValueSchema,
  KEEP_ACTION_IDS,
  keepActionValueSchema,
} from "../bot/ids.ts";
import { HOUR_MS, MINUTE_MS } from "../shared/clock.ts";
import { keepHost } from "../usecases/alerts/keep-host.ts";
import { authorityFor, holdsEverythingOn, holdsSomethingOn, mayAct } from "../usecases/authorise.ts";
import type { ClaimDeps } from "../usecases/claims/claim-deps.ts";
import { claimHost } from "../usecases/claims/claim-host.ts";
import { claimStillUsing } from "../usecases/claims/claim-still-using.ts";
import { releaseClaims } from "../usecases/claims/release-claims.ts";
import { doneWithMine } from "../usecases/power/done-with-mine.ts";
import { previewStop, type StopHostDeps, stopHost } from "../usecases/power/stop-host.ts";
import { buttonsOf, type Delivery, type SeenButton } from "./simulated-slack.ts";
import type { TeamEvent } from "./team-events.ts";
import { Rng } from "./team-random.ts";
import type { TeamWorld } from "./team-world.ts";

const STREAM_ANSWERS = 9;
/** The autopilot warnings' own stream: reading them leaves every other answer's draws as they were. */
const STREAM_WARNING_ANSWERS = 11;

/** A button press (or `/gpu` command) a person makes; run after the minute's poll. */
export type Click = () => Promise<void> | void;

/** What the simulated people read in Slack and answer, through the use-cases the listeners call. */
export interface TeamAnswers {
  /**
   * New alerts, notices, DMs, claim nudges and the autopilot's warning DMs delivered by the outbox:
   * each answered later, or never.
   */
  read(deliveries: readonly Delivery[]): void;
  /** Alerts escalated to the cost warden since the last call: the warden answers like anyone else. */
  readEscalations(): void;
}

/**
 * The people's side of the bot: who has a stake in an alert, when they answer (a delay drawn per
 * message), and what they press — Keep (or Claim) if they still need the host, Stop if it is theirs
 * to stop, *Done with mine* if only some of what is on it is theirs; *Still using it* or *Release* on a claim nudge; on the autopilot's warning DM, its Keep if
 * they still need the host (else they let it stop). Presses are queued in `clicks`.
 */
export function createTeamAnswers(input: {
  world: TeamWorld;
  deps: StopHostDeps & ClaimDeps;
  clicks: Click[];
}): TeamAnswers {
  const { world, deps, clicks } = input;
  const { state, config } = deps;
  const params = world.params;
  const answers = Rng.keyed(params.seed, STREAM_ANSWERS);
  const warningAnswers = Rng.keyed(params.seed, STREAM_WARNING_ANSWERS);
  const escalationsSeen = new Set<number>();
  const alertsSeen = new Set<number>();

  const log = (event: TeamEvent) => world.events.push(event);
  const personId = (person: number) => params.people[person]!.id;

  /**
   * When `person` acts on a message sent now: within minutes (while awake, 07:00–23:00 local; at
   * night it waits for the morning), the next working morning, or never; every delay × `slowdown`.
   */
  function answerAtMs(person: number, draws: Rng = answers): number | null {
    const a = params.answers;
    const cal = world.calendar;
    const draw = draws.next();
    const delayMs = draws.logNormal(a.quickMedianMin, a.quickSigma) * MINUTE_MS;
    const morningMs = draws.next() * 30 * MINUTE_MS;
    if (a.nobody || draw >= a.quickShare + a.nextMorningShare) return null;
    const nowMs = world.nowMs;
    const quickMs = nowMs + Math.max(MINUTE_MS, delayMs * a.slowdown);
    const hour = cal.localHour(quickMs);
    if (draw < a.quickShare && hour >= 7 && hour < 23) return quickMs;
    const arrival = cal.nextArrivalMs(person, cal.atWork(person, nowMs) ? nowMs + 12 * HOUR_MS : nowMs);
    return arrival === null ? null : nowMs + (arrival + morningMs - nowMs) * a.slowdown;
  }

  function later(person: number, click: Click, draws: Rng = answers): void {
    const atMs = answerAtMs(person, draws);
    if (atMs !== null) world.schedule(Math.round(atMs), () => clicks.push(click));
  }

  function othersHoldMemory(host: string, login: string): boolean {
    const latest = deps.fleet.latest(host)?.observation;
    if (!latest?.ok) return false;
    return latest.gpus.some((gpu) => gpu.processes.some((p) => p.user !== null && p.user !== login));
  }

  /**
   * What the Stop confirm shows before the click: someone else's recent input on the host (whose, how
   * long ago). A person who reads that a colleague typed there recently does not end their session.
   */
  function othersTypedRecently(person: number, host: string, alertId: number): boolean {
    const shown = previewStop(deps, { host, actor: personId(person), alertId, reason: "alert button" });
    const login = params.people[person]!.login;
    return shown.kind === "begun" && shown.recent.some((input) => input.user !== login);
  }

  /** What a person does about an open idle alert: keep it if they still need the host, else stop it. */
  async function answerAlert(
    person: number,
    host: string,
    alertId: number,
    asWarden: boolean,
  ): Promise<void> {
    const actor = personId(person);
    const alert = state.alerts.byId(alertId);
    if (alert === null || alert.resolvedAtMs !== null) return;
    const answer = (action: Extract<TeamEvent, { kind: "answer" }>["action"], outcome: string) =>
      log({ kind: "answer", atMs: world.nowMs, person: actor, host, action, outcome });
    if (world.needsHost(person, host)) {
      const early = world.calendar.atWork(person, world.nowMs) && world.calendar.localHour(world.nowMs) < 15;
      const kept = keepHost(deps, {
        host,
        actor,
        alertId,
        span: early ? { kind: "for", ms: 4 * HOUR_MS } : { kind: "tomorrow" },
      });
      if (kept.kind === "kept") {
        answer("keep", "kept");
        return;
      }
      answer("claim", claimHost(deps, { host, actor, alertId }).kind);
      return;
    }
    const authority = authorityFor(deps, host, world.nowMs);
    const mine = mayAct(actor, authority) && !othersHoldMemory(host, params.people[person]!.login);
    if (!asWarden && !mine && !holdsEverythingOn(deps, host, actor, world.nowMs)) {
      if (!holdsSomethingOn(deps, host, actor)) {
        answer("nothing", "not mine to stop");
        return;
      }
      const done = await doneWithMine(deps, { host, actor, alertId });
      answer("done", done.kind === "refused" ? `refused: ${done.reason}` : done.kind);
      return;
    }
    if (othersTypedRecently(person, host, alertId)) {
      answer("nothing", "someone else typed there recently");
      return;
    }
    const result = await stopHost(deps, { host, actor, alertId, reason: "alert button" });
    answer("stop", result.kind === "refused" ? `refused: ${result.reason}` : result.kind);
  }

  function onAlertPosted(host: string, alertId: number): void {
    if (alertsSeen.has(alertId)) return;
    alertsSeen.add(alertId);
    const stake = new Set<number>();
    for (const owner of config.hosts[host]?.owners ?? []) stake.add(world.personIndex(owner));
    for (const claim of state.claims.activeOn(host, world.nowMs)) stake.add(world.personIndex(claim.user));
    for (const slot of world.host(host).slots) {
      if (slot !== null) stake.add(slot.kind === "run" ? slot.run.person : slot.notebook.person);
    }
    for (const person of [...stake].filter((p) => p >= 0).sort((a, b) => a - b)) {
      later(person, () => answerAlert(person, host, alertId, false));
    }
  }

  function onNudge(user: string, claimIds: number[]): void {
    const person = world.personIndex(user);
    if (person < 0) return;
    later(person, () => {
      const claims = state.claims.unreleased(claimIds);
      const host = claims[0]?.host;
      if (host === undefined) return;
      if (world.needsHost(person, host)) {
        log({
          kind: "answer",
          atMs: world.nowMs,
          person: user,
          host,
          action: "still-using",
          outcome: claimStillUsing(deps, { actor: user, claimIds }).kind,
        });
      } else {
        const released = releaseClaims(deps, { actor: user, target: { kind: "ids", claimIds } });
        log({
          kind: "answer",
          atMs: world.nowMs,
          person: user,
          host,
          action: "release",
          outcome: released.kind,
        });
      }
    });
  }

  /**
   * The autopilot's warning DM ("it stops at … unless you keep it"): read after the same delay as any
   * message; a person who still needs the host presses its Keep (the DM's only keep, until tomorrow),
   * one who does not lets it stop. Read after the plan is gone (stopped, called off), it is moot.
   */
  function onWarning(user: string, host: string, alertId: number): void {
    const person = world.personIndex(user);
    if (person >= 0) later(person, () => answerWarning(person, host, alertId), warningAnswers);
  }

  function answerWarning(person: number, host: string, alertId: number): void {
    if (state.autopilot.get(host)?.alertId !== alertId) return;
    const actor = personId(person);
    const answer = (action: "keep" | "nothing", outcome: string) =>
      log({ kind: "answer", atMs: world.nowMs, person: actor, host, action, outcome });
    if (!world.needsHost(person, host)) {
      answer("nothing", "lets it stop");
      return;
    }
    answer("keep", keepHost(deps, { host, actor, span: { kind: "tomorrow" }, alertId }).kind);
  }

  function readDm(user: string, buttons: readonly SeenButton[]): void {
    log({ kind: "message", atMs: world.nowMs, to: user, what: "dm" });
    const nudge = buttons.find((b) => b.actionId === ACTION_IDS.claimStillUsing);
    const claims = nudge === undefined ? null : claimIdsValueSchema.safeParse(nudge.value);
    if (claims?.success) onNudge(user, claims.data.claims);
    const keep = buttons.find((b) => b.actionId === KEEP_ACTION_IDS.tomorrow);
    const warning = keep === undefined ? null : keepActionValueSchema.safeParse(keep.value);
    if (warning?.success && warning.data.alertId !== undefined) {
      onWarning(user, warning.data.host, warning.data.alertId);
    }
  }

  function read(deliveries: readonly Delivery[]): void {
    for (const { method, args } of deliveries) {
      if (method !== "chat.postMessage") continue;
      const channel = String(args.channel);
      const buttons = buttonsOf(args);
      if (channel.startsWith("U")) {
        readDm(channel, buttons);
        continue;
      }
      if (args.thread_ts !== undefined) continue;
      const stop = buttons.find((b) => b.actionId === ACTION_IDS.stopHost);
      const parsed = stop === undefined ? null : hostActionValueSchema.safeParse(stop.value);
      log({ kind: "message", atMs: world.nowMs, to: channel, what: parsed?.success ? "alert" : "notice" });
      if (parsed?.success && parsed.data.alertId !== undefined)
        onAlertPosted(parsed.data.host, parsed.data.alertId);
    }
  }

  /** Escalated alerts: the cost warden is mentioned in the thread and answers like anyone else. */
  function readEscalations(): void {
    for (const alert of state.alerts.allOpen()) {
      if (alert.kind !== "idle" || !alert.escalated || escalationsSeen.has(alert.id)) continue;
      escalationsSeen.add(alert.id);
      const warden = deps.warden.current(world.nowMs);
      if (warden === null) continue;
      log({ kind: "message", atMs: world.nowMs, to: warden, what: "escalation" });
      const person = world.personIndex(warden);
      const { host, id } = alert;
      if (person >= 0) later(person, () => answerAlert(person, host, id, true));
    }
  }

  return { read, readEscalations };
}
