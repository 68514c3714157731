import Database from "better-sqlite3";
import { BotKilled } from "./bot-process.ts";
import { BOB, CHANNEL, type CrashWorld, DAVE, DAY_START_MS, OWNER } from "./crash-world.ts";

const MINUTE_MS = 60_000;

/** What a step may use: the world, and a wait that ends when the bot is killed. */
export interface DayContext {
  world: CrashWorld;
  signal: AbortSignal;
}

/**
 * One step of the team's day, written as a person would do it after a crash: it looks first (the
 * channel, or the state `/gpu mine` and `/gpu queue` would show) and acts only when what it wants
 * has not happened, then waits until it has.
 */
export interface DayStep {
  name: string;
  run(ctx: DayContext): Promise<void>;
}

/** Polls `predicate` every 20 ms; throws when the bot is killed meanwhile or after `timeoutMs`. */
export async function until(ctx: DayContext, predicate: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (ctx.signal.aborted) throw new BotKilled();
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads the bot's store (read-only, beside the running bot). */
export function readStore<T>(world: CrashWorld, read: (db: Database.Database) => T): T {
  const db = new Database(world.dbPath, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function count(world: CrashWorld, sql: string, ...params: unknown[]): number {
  return readStore(
    world,
    (db) =>
      db
        .prepare(sql)
        .pluck()
        .get(...params) as number,
  );
}

/** The summaries in the channel: the one message with files (its chart and CSVs). */
export function summaries(world: CrashWorld) {
  return world.slack.state.messages.filter(
    (m) => m.channel === CHANNEL && !m.deleted && m.fileIds.length > 0,
  );
}

function alertOf(world: CrashWorld, host: string) {
  return world.slack.channel(CHANNEL).messages.find((message) => message.text.includes(`${host} is idle`));
}

async function interact(ctx: DayContext, action: Promise<unknown>): Promise<void> {
  let onAbort = () => {};
  const killed = new Promise<never>((_, reject) => {
    onAbort = () => reject(new BotKilled());
    ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  killed.catch(() => {});
  try {
    await Promise.race([action, killed]);
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

async function press(ctx: DayContext, host: string, user: string, actionId: string): Promise<void> {
  const alert = alertOf(ctx.world, host);
  if (alert === undefined) throw new Error(`no alert for ${host}`);
  await interact(ctx, ctx.world.slack.clickButton({ user, message: alert, actionId }));
}

async function command(ctx: DayContext, user: string, text: string): Promise<void> {
  await interact(ctx, ctx.world.slack.slashCommand({ user, text }));
}

/** Moves the clock minute by minute to `ms`, or until `done`. */
async function walkTo(ctx: DayContext, ms: number, done: () => boolean = () => false): Promise<void> {
  while (ctx.world.nowMs < ms && !done()) await interact(ctx, ctx.world.at(ctx.world.nowMs + MINUTE_MS));
}

const at = (minutes: number) => DAY_START_MS + minutes * MINUTE_MS;

/** The day: alerts at start, a keep, a stop, a claim, a higher-priority wait that preempts it, the summary. */
export function teamDay(): DayStep[] {
  return [
    {
      name: "alerts",
      run: async (ctx) => {
        const { world } = ctx;
        await until(ctx, () => alertOf(world, world.stopHost) !== undefined, "the stop host's alert");
        await until(ctx, () => alertOf(world, world.keepHost) !== undefined, "the keep host's alert");
      },
    },
    {
      name: "keep",
      run: async (ctx) => {
        const { world } = ctx;
        await walkTo(ctx, at(5));
        const kept = () => count(world, "SELECT count(*) FROM snooze WHERE host = ?", world.keepHost) > 0;
        if (!kept()) await press(ctx, world.keepHost, OWNER, "keep_host_4h");
        await until(ctx, kept, "the keep recorded");
      },
    },
    {
      name: "stop",
      run: async (ctx) => {
        const { world } = ctx;
        await walkTo(ctx, at(10));
        const state = () =>
          readStore(
            world,
            (db) =>
              db
                .prepare("SELECT state FROM stop_run WHERE host = ? ORDER BY id DESC LIMIT 1")
                .pluck()
                .get(world.stopHost) as string | undefined,
          );
        // NOTE: a stop a killed bot left running is ended once its timeout has passed: wait for it, as the owner would.
        while (state() === "running") await interact(ctx, world.at(world.nowMs + 10_000));
        if (state() !== "done") await press(ctx, world.stopHost, OWNER, "stop_host");
        await until(ctx, () => state() === "done", "the stop done");
      },
    },
    {
      name: "claim",
      run: async (ctx) => {
        const { world } = ctx;
        await walkTo(ctx, at(15));
        const claims = () =>
          count(world, "SELECT count(*) FROM claim WHERE user = ? AND host = ?", BOB, world.claimHost);
        if (claims() === 0) await command(ctx, BOB, `claim ${world.claimHost}:0 for 4h sft`);
        await until(ctx, () => claims() > 0, "Bob's claim");
      },
    },
    {
      name: "wait",
      run: async (ctx) => {
        const { world } = ctx;
        await walkTo(ctx, at(20));
        const requests = () => count(world, "SELECT count(*) FROM queue_request WHERE user = ?", DAVE);
        if (requests() === 0) await command(ctx, DAVE, `claim ${world.claimHost}:0 for 1h paper --wait`);
        await until(ctx, () => requests() > 0, "Dave's request");
        const asked = () => count(world, "SELECT count(*) FROM queue_preempt") > 0;
        await walkTo(ctx, at(21), asked);
        await until(ctx, asked, "Bob asked to make room");
      },
    },
    {
      name: "grant",
      run: async (ctx) => {
        const { world } = ctx;
        const granted = () => count(world, "SELECT count(*) FROM queue_grant") > 0;
        await walkTo(ctx, at(30), granted);
        await until(ctx, granted, "Dave's grant (after Bob was asked to make room)");
      },
    },
    {
      name: "summary",
      run: async (ctx) => {
        const { world } = ctx;
        const posted = () => summaries(world).length > 0;
        await walkTo(ctx, at(65), posted);
        await until(ctx, posted, "the summary");
      },
    },
  ];
}
