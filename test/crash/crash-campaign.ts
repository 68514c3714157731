import { writeFileSync } from "node:fs";
import { ensureBuilt } from "../helpers/built-bin.ts";
import { BotKilled } from "./bot-process.ts";
import { crashDiagnosis } from "./crash-diagnosis.ts";
import { crashInvariants, endOfDayInvariants } from "./crash-invariants.ts";
import { BOB, CrashWorld, DAVE } from "./crash-world.ts";
import { type DayContext, type DayStep, readStore, teamDay, until } from "./team-day.ts";

/** Where and how the bot is killed: a random moment of a step, or a known window. */
export type KillPoint =
  | { step: number; kind: "random"; delayMs: number }
  | { step: number; kind: KnownWindow };

/**
 * The known windows: a DM Slack took whose answer was lost, inside a stop, right after a grant, and
 * the summary's files shared by Slack whose answer was lost.
 */
export const KNOWN_WINDOWS = ["inside-stop", "post-unrecorded", "inside-grant", "upload-unrecorded"] as const;
export type KnownWindow = (typeof KNOWN_WINDOWS)[number];

export interface CampaignOptions {
  /** Random kill points (the known windows come on top). */
  points: number;
  seed: number;
  log?: ((line: string) => void) | undefined;
}

export interface CampaignResult {
  seed: number;
  kills: number;
  /** Each broken invariant, with the kill after which it was seen. */
  violations: string[];
  /** Known windows the day never entered (the bot was killed there anyway). */
  missed: string[];
  durationMs: number;
  /**
   * When an invariant broke or the day could not be played: the campaign's log (its kills and
   * steps) and what Slack and the store held then ({@link crashDiagnosis}); empty otherwise.
   */
  diagnosis: string[];
}

/** A small seeded generator (mulberry32): the same seed, the same kill points. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The kill points of a campaign: the known windows, then `points` random moments, by step. */
export function killPoints(steps: readonly DayStep[], points: number, seed: number): KillPoint[] {
  const random = seededRandom(seed);
  const index = (name: string) => steps.findIndex((step) => step.name === name);
  const known: KillPoint[] = [
    { step: index("stop"), kind: "inside-stop" },
    { step: index("wait"), kind: "post-unrecorded" },
    { step: index("grant"), kind: "inside-grant" },
    { step: index("summary"), kind: "upload-unrecorded" },
  ];
  const chosen: KillPoint[] = Array.from({ length: points }, () => ({
    step: Math.floor(random() * steps.length),
    kind: "random" as const,
    delayMs: Math.floor(random() * 1500),
  }));
  return [...known, ...chosen].sort((a, b) => a.step - b.step);
}

/**
 * Plays the team's day against the bot, killing it with SIGKILL at every kill point and starting
 * it again (at the same time on its clock); after each restart, and at the end, checks the invariants.
 */
export async function runCrashCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const started = Date.now();
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    options.log?.(line);
  };
  const steps = teamDay();
  const points = killPoints(steps, options.points, options.seed);
  ensureBuilt();
  const world = new CrashWorld();
  const violations: string[] = [];
  const missed: string[] = [];
  let kills = 0;
  try {
    await world.open();
    await world.startBot();
    for (const [index, step] of steps.entries()) {
      for (const point of points.filter((p) => p.step === index)) {
        const reached = await killDuring(world, step, point);
        if (point.kind !== "random" && !reached) missed.push(point.kind);
        kills += 1;
        const restarted = Date.now();
        await world.startBot();
        const readyMs = Date.now() - restarted;
        await settle(world);
        const label = `after kill ${kills} (${step.name}, ${describe(point)})`;
        for (const problem of crashInvariants(world)) violations.push(`${label}: ${problem}`);
        log(
          `kill ${kills}/${points.length}: ${step.name}, ${describe(point)} (ready ${readyMs} ms, settled ${Date.now() - restarted} ms)`,
        );
      }
      const stepStarted = Date.now();
      await step.run({ world, signal: new AbortController().signal });
      log(`step ${step.name} done (${Date.now() - stepStarted} ms)`);
    }
    await settle(world);
    for (const problem of endOfDayInvariants(world)) violations.push(`at the end of the day: ${problem}`);
  } catch (error) {
    violations.push(`the day could not be played: ${error instanceof Error ? error.message : String(error)}`);
  }
  let diagnosis: string[] = [];
  try {
    if (violations.length > 0) diagnosis = ["campaign log:", ...lines, ...crashDiagnosis(world)];
  } finally {
    await world.close();
  }
  return { seed: options.seed, kills, violations, missed, durationMs: Date.now() - started, diagnosis };
}

function describe(point: KillPoint): string {
  return point.kind === "random" ? `${point.delayMs} ms in` : point.kind;
}

/**
 * Runs `step` and kills the bot at `point`: after a random delay, or once the bot is inside a known
 * window (20 s at most). Returns whether a known window was reached.
 */
async function killDuring(world: CrashWorld, step: DayStep, point: KillPoint): Promise<boolean> {
  const abort = new AbortController();
  const ctx: DayContext = { world, signal: abort.signal };
  const window = openWindow(world, point);
  const work = step.run(ctx).catch((error: unknown) => {
    if (!(error instanceof BotKilled)) throw error;
  });
  let reached = false;
  if (point.kind === "random") await Promise.race([sleep(point.delayMs), work]);
  else {
    reached = await until(ctx, window.reached, point.kind, 20_000).then(
      () => true,
      () => false,
    );
  }
  await world.killBot();
  abort.abort();
  window.close();
  await work.catch(() => {});
  return reached;
}

/** Sets up a known window; `reached` once the bot is inside it. */
function openWindow(world: CrashWorld, point: KillPoint): { reached: () => boolean; close: () => void } {
  switch (point.kind) {
    case "random":
      return { reached: () => false, close: () => {} };
    case "inside-stop":
      writeFileSync(world.hangFlag, "");
      return { reached: () => world.stopRuns().length > 0 && world.bot !== null, close: () => {} };
    case "post-unrecorded":
    case "inside-grant": {
      const user = point.kind === "inside-grant" ? DAVE : BOB;
      const rule = world.slack.failNext(
        { method: "chat.postMessage", where: { channel: user } },
        { hangAfter: true },
      );
      return { reached: () => rule.hits > 0, close: () => rule.remove() };
    }
    case "upload-unrecorded": {
      const rule = world.slack.failNext("files.completeUploadExternal", { hangAfter: true });
      return { reached: () => rule.hits > 0, close: () => rule.remove() };
    }
    default:
      return point satisfies never;
  }
}

/** Waits until the bot has delivered what it had to say: nothing pending, and Slack quiet for 300 ms. */
async function settle(world: CrashWorld): Promise<void> {
  const ctx: DayContext = { world, signal: new AbortController().signal };
  let calls = -1;
  let quietSince = Date.now();
  await until(
    ctx,
    () => {
      const now = world.slack.calls().length;
      if (now !== calls) {
        calls = now;
        quietSince = Date.now();
      }
      const pending = readStore(world, (db) =>
        db.prepare("SELECT count(*) FROM outbox WHERE state = 'pending'").pluck().get(),
      ) as number;
      return pending === 0 && Date.now() - quietSince >= 300;
    },
    "the outbox drained",
    30_000,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
