import { engineRawRetentionDays, rawRetentionDays } from "../config/raw-retention.ts";
import type { Source } from "../domain/source.ts";
import { composeBot } from "../main/compose-bot.ts";
import { DAY_MS, HOUR_MS, type ManualClock } from "../shared/clock.ts";
import { silentLogger } from "../shared/logger.ts";
import { openDatabase } from "../store/open-database.ts";
import { claimGpus } from "../usecases/claims/claim-gpus.ts";
import { releaseClaims } from "../usecases/claims/release-claims.ts";
import { tickClaims } from "../usecases/claims/tick-claims.ts";
import { stopHost } from "../usecases/power/stop-host.ts";
import { SimulatedSlack } from "./simulated-slack.ts";
import { type Click, createTeamAnswers } from "./team-answers.ts";
import { SIM_START_URL, SIM_STOP_URL, teamConfig } from "./team-config.ts";
import type { TeamLedger } from "./team-ledger.ts";
import type { TeamPolicy } from "./team-policy.ts";
import { Rng } from "./team-random.ts";
import { observeHost } from "./team-readings.ts";
import type { SimRun } from "./team-work.ts";
import type { PeopleHooks, TeamWorld } from "./team-world.ts";

const STREAM_CLAIMS = 10;

/**
 * The `gpu-warden` policy: the project's own poll, store, idle checks, alert lifecycle, outbox,
 * claims job, stop, keep and claim use-cases, composed by `composeBot` as `src/main.ts` composes them,
 * over the simulated fleet; its ports are the simulated Slack, the fleet's source and the stop and
 * start webhooks.
 * The people read what the outbox delivers and press the buttons (the use-cases the listeners call)
 * after a delay drawn per message; the stop webhook switches the simulated host off, the start
 * webhook boots it.
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
  const slack = new SimulatedSlack();
  const clicks: Click[] = [];
  const claimsOfRun = new Map<number, number[]>();

  const simFetch = (async (url: string | URL | Request, init?: RequestInit) => {
    if (String(url).startsWith(`${SIM_START_URL}/`)) {
      world.powerOn(String(url).slice(SIM_START_URL.length + 1), "gpu-warden");
      return new Response("switched on", { status: 200 });
    }
    const host = String(url).slice(SIM_STOP_URL.length + 1);
    const body = JSON.parse(String(init?.body ?? "{}")) as { actor?: string; reason?: string };
    const by = body.reason === "/gpu stop" ? "person" : "policy";
    world.powerOff(host, by, body.actor ?? "gpu-warden", ledger.idleForMin(host));
    return new Response("switched off", { status: 200 });
  }) as typeof fetch;
  const source: Source = {
    kind: "simulated",
    hosts: params.hosts.map((host) => host.name),
    poll: async () => world.hosts.map((host) => observeHost(world, host)),
  };
  const db = openDatabase(config.store.path);
  const bot = composeBot({
    config,
    clock,
    db,
    ports: {
      logger: silentLogger,
      messages: { slack: slack.client, pacing: { postIntervalMs: 0 } },
      sources: [source],
      fetch: simFetch,
    },
  });
  const { alerts, stores } = bot;
  const metrics = stores.store;
  const outbox = bot.delivery.outbox!;
  outbox.start();
  const deps = bot.deps;
  alerts.restore();

  const people = createTeamAnswers({ world, deps, clicks });
  const personId = (person: number) => params.people[person]!.id;

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
      await bot.poll();
      await alerts.settled();
      while (clicks.length > 0) await clicks.shift()!();
      await alerts.settled();
      tickClaims(deps, nowMs);
      await outbox.drain();
      people.read(slack.take());
      people.readEscalations();
      const day = Math.floor((nowMs - params.startMs) / DAY_MS);
      if (day > lastPruneDay) {
        lastPruneDay = day;
        while (!metrics.rollup(nowMs, config.policy.idle_util_pct, 24).complete) {}
        while (
          !metrics.prune(
            nowMs,
            rawRetentionDays(config),
            config.store.rollup_retention_days,
            500,
            engineRawRetentionDays(config),
          ).complete
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
