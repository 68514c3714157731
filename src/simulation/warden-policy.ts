import { ACTION_IDS, claimIdsValueSchema, hostActionValueSchema } from "../bot/ids.ts";
import { createOutboxWorker } from "../bot/outbox-worker.ts";
import { DAY_MS, HOUR_MS, type ManualClock, MINUTE_MS } from "../shared/clock.ts";
import { createLogger, silentLogger } from "../shared/logger.ts";
import type { Source } from "../sources/observation.ts";
import { createBotStateStore } from "../store/bot-state-store.ts";
import { createCostStores } from "../store/cost-stores.ts";
import { createMetricsStore } from "../store/metrics-store.ts";
import { openDatabase } from "../store/open-database.ts";
import { idlePolicyOf } from "../usecases/alert-policy.ts";
import { authorityFor, mayAct } from "../usecases/authorise.ts";
import type { ClaimDeps } from "../usecases/claim-deps.ts";
import { claimGpus } from "../usecases/claim-gpus.ts";
import { claimHost } from "../usecases/claim-host.ts";
import { claimStillUsing } from "../usecases/claim-still-using.ts";
import { costWardenDepsOf } from "../usecases/cost-warden-deps.ts";
import { createIdleAlerts } from "../usecases/idle-alerts.ts";
import { keepHost } from "../usecases/keep-host.ts";
import { pollFleet } from "../usecases/poll-fleet.ts";
import { releaseClaims } from "../usecases/release-claims.ts";
import { type StopHostDeps, stopAutomatically, stopHost } from "../usecases/stop-host.ts";
import { tickClaims } from "../usecases/tick-claims.ts";
import { recentSamples } from "./recent-samples.ts";
import { buttonsOf, type Delivery, SimulatedSlack } from "./simulated-slack.ts";
import { SIM_STOP_URL, teamConfig } from "./team-config.ts";
import type { TeamEvent } from "./team-events.ts";
import type { TeamLedger } from "./team-ledger.ts";
import type { TeamPolicy } from "./team-policy.ts";
import { Rng } from "./team-random.ts";
import { observeHost } from "./team-readings.ts";
import type { SimRun } from "./team-work.ts";
import type { PeopleHooks, TeamWorld } from "./team-world.ts";

const STREAM_ANSWERS = 9;
const STREAM_CLAIMS = 10;

type Click = () => Promise<void> | void;

/**
 * The `gpu-warden` policy: the project's own poll, store, idle checks, alert lifecycle, outbox,
 * claims job, stop, keep and claim use-cases, composed as `src/main.ts` composes them, over the
 * simulated fleet. The people read what the outbox delivers and press the buttons (the use-cases the
 * listeners call) after a delay drawn per message; the stop webhook switches the simulated host off.
 */
export function createWardenPolicy(input: {
  world: TeamWorld;
  ledger: TeamLedger;
  clock: ManualClock;
  autoStop: boolean;
  storePath?: string;
}): TeamPolicy {
  const { world, ledger, clock } = input;
  const params = world.params;
  const config = teamConfig(params, { autoStop: input.autoStop, storePath: input.storePath ?? ":memory:" });
  const db = openDatabase(config.store.path);
  const metrics = createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 });
  const state = createBotStateStore(db);
  const costWarden = costWardenDepsOf({
    config,
    metrics,
    stores: createCostStores(db),
    audit: state.audit,
    clock,
    pendingReclaims: null,
  });
  const slack = new SimulatedSlack();
  const outbox = createOutboxWorker({
    store: state,
    client: slack.client,
    clock,
    logger: process.env.SIM_DEBUG ? createLogger("warn") : silentLogger,
  });
  outbox.start();
  const answers = Rng.keyed(params.seed, STREAM_ANSWERS);
  const clicks: Click[] = [];
  const claimsOfRun = new Map<number, number[]>();
  const escalationsSeen = new Set<number>();
  const alertsSeen = new Set<number>();

  const simFetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const host = String(url).slice(SIM_STOP_URL.length + 1);
    const body = JSON.parse(String(init?.body ?? "{}")) as { actor?: string; reason?: string };
    const by = body.reason === "/gpu stop" ? "person" : "policy";
    world.powerOff(host, by, body.actor ?? "gpu-warden", ledger.idleForMin(host));
    return new Response("switched off", { status: 200 });
  }) as typeof fetch;

  let deps: StopHostDeps & ClaimDeps;
  const claimMetrics = recentSamples(
    metrics,
    Math.max(config.claims.claim_idle_nudge_minutes, config.claims.claim_idle_release_minutes ?? 0) *
      MINUTE_MS +
      HOUR_MS,
  );
  const alerts = createIdleAlerts({
    config,
    metrics,
    state,
    notifier: outbox,
    warden: costWarden.wardens,
    clock,
    logger: silentLogger,
    stopAutomatically: async (host, alertId) => {
      await stopAutomatically(deps, host, alertId);
    },
  });
  deps = {
    config,
    idlePolicy: idlePolicyOf(config),
    state,
    fleet: alerts,
    alerts,
    warden: costWarden.wardens,
    clock,
    logger: silentLogger,
    notifier: outbox,
    metrics: claimMetrics,
    fetch: simFetch,
  };
  alerts.restore();

  const source: Source = {
    kind: "simulated",
    hosts: params.hosts.map((host) => host.name),
    poll: async () => world.hosts.map((host) => observeHost(world, host)),
  };

  const log = (event: TeamEvent) => world.events.push(event);
  const personId = (person: number) => params.people[person]!.id;

  /**
   * When `person` acts on a message sent now: within minutes (while awake, 07:00–23:00 local; at
   * night it waits for the morning), the next working morning, or never; every delay × `slowdown`.
   */
  function answerAtMs(person: number): number | null {
    const a = params.answers;
    const cal = world.calendar;
    const draw = answers.next();
    const delayMs = answers.logNormal(a.quickMedianMin, a.quickSigma) * MINUTE_MS;
    const morningMs = answers.next() * 30 * MINUTE_MS;
    if (a.nobody || draw >= a.quickShare + a.nextMorningShare) return null;
    const nowMs = world.nowMs;
    const quickMs = nowMs + Math.max(MINUTE_MS, delayMs * a.slowdown);
    const hour = cal.localHour(quickMs);
    if (draw < a.quickShare && hour >= 7 && hour < 23) return quickMs;
    const arrival = cal.nextArrivalMs(person, cal.atWork(person, nowMs) ? nowMs + 12 * HOUR_MS : nowMs);
    return arrival === null ? null : nowMs + (arrival + morningMs - nowMs) * a.slowdown;
  }

  function later(person: number, click: Click): void {
    const atMs = answerAtMs(person);
    if (atMs !== null) world.schedule(Math.round(atMs), () => clicks.push(click));
  }

  function othersHoldMemory(host: string, login: string): boolean {
    const latest = alerts.latest(host)?.observation;
    if (!latest?.ok) return false;
    return latest.gpus.some((gpu) => gpu.processes.some((p) => p.user !== null && p.user !== login));
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
    if (!asWarden && (!mayAct(actor, authority) || othersHoldMemory(host, params.people[person]!.login))) {
      answer("nothing", "not mine to stop");
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

  function read(deliveries: Delivery[]): void {
    for (const { method, args } of deliveries) {
      if (method !== "chat.postMessage") continue;
      const channel = String(args.channel);
      const buttons = buttonsOf(args);
      if (channel.startsWith("U")) {
        log({ kind: "message", atMs: world.nowMs, to: channel, what: "dm" });
        const nudge = buttons.find((b) => b.actionId === ACTION_IDS.claimStillUsing);
        const parsed = nudge === undefined ? null : claimIdsValueSchema.safeParse(nudge.value);
        if (parsed?.success) onNudge(channel, parsed.data.claims);
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
      const warden = costWarden.wardens.current(world.nowMs);
      if (warden === null) continue;
      log({ kind: "message", atMs: world.nowMs, to: warden, what: "escalation" });
      const person = world.personIndex(warden);
      const { host, id } = alert;
      if (person >= 0) later(person, () => answerAlert(person, host, id, true));
    }
  }

  const claimRng = Rng.keyed(params.seed, STREAM_CLAIMS);
  const hooks: PeopleHooks = {
    runStarted(run: SimRun) {
      if (!claimRng.chance(params.claims.claimChance)) return;
      const hours = Math.min(config.claims.max_days * 24, Math.ceil(run.plan.trainMin / 60) + 2);
      const result = claimGpus(deps, {
        actor: personId(run.person),
        target: { kind: "slots", slots: { host: run.host, gpus: [...run.gpus].sort((a, b) => a - b) } },
        durationMs: hours * HOUR_MS,
      });
      if (result.kind === "claimed")
        claimsOfRun.set(
          run.id,
          result.groups.flatMap((group) => group.claimIds),
        );
    },
    runFinishedNoticed(run: SimRun) {
      const claimIds = claimsOfRun.get(run.id);
      claimsOfRun.delete(run.id);
      if (claimIds === undefined || !claimRng.chance(params.claims.releaseChance)) return;
      releaseClaims(deps, { actor: personId(run.person), target: { kind: "ids", claimIds } });
    },
    tidy(person: number, host: string) {
      clicks.push(async () => {
        const result = await stopHost(deps, { host, actor: personId(person), reason: "/gpu stop" });
        if (result.kind === "refused" && result.reason === "not-allowed") {
          world.powerOff(host, "person", personId(person), ledger.idleForMin(host));
        }
      });
    },
  };

  let lastPruneDay = 0;
  return {
    name: input.autoStop ? "gpu-warden-autostop" : "gpu-warden",
    hooks,
    async step(nowMs: number) {
      const result = await pollFleet({
        sources: [source],
        store: metrics,
        clock,
        logger: silentLogger,
        metrics: null,
        timeoutMs: 54_000,
      });
      alerts.onPoll(result);
      await alerts.settled();
      while (clicks.length > 0) await clicks.shift()!();
      await alerts.settled();
      tickClaims(deps, nowMs);
      await outbox.drain();
      read(slack.take());
      readEscalations();
      const day = Math.floor((nowMs - params.startMs) / DAY_MS);
      if (day > lastPruneDay) {
        lastPruneDay = day;
        while (!metrics.rollup(nowMs, config.policy.idle_util_pct, 24).complete) {}
        while (
          !metrics.prune(nowMs, config.store.raw_retention_days, config.store.rollup_retention_days, 500)
            .complete
        ) {}
      }
    },
    async close() {
      await alerts.settled();
      await outbox.stop();
      db.close();
    },
  };
}
