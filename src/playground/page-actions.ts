import type { ClockTimer } from "../jobs/clock-timer.ts";
import type { RunningBot } from "../main.ts";
import type { Logger } from "../shared/logger.ts";
import { HOST_MODES, type HostMode } from "./controlled-fleet.ts";
import { clockState, type SnapshotSources } from "./page-snapshot.ts";
import { PLAYGROUND_CHANNEL, PLAYGROUND_USERS } from "./playground-config.ts";
import { isObject, type JsonObject } from "./slack-emulator/json.ts";

export interface PageActionDeps extends SnapshotSources {
  timer: ClockTimer;
  bot: () => RunningBot | null;
  logger: Logger;
}

/** What the page can do, by `POST /api/<name>`; each takes the JSON body and answers an object. */
export type PageActions = Record<string, (body: JsonObject) => Promise<object>>;

/** A request the page should not have sent (answered 400). */
export class BadRequest extends Error {}

const RATES = [1, 60, 600];

/**
 * A person's actions, delivered through the emulator as Slack would (command, click, submit,
 * close, App Home opened), and the fleet panel and the clock control; `changed` tells open pages.
 */
export function pageActions(deps: PageActionDeps, changed: () => void): PageActions {
  const { emulator, fleet } = deps;
  return {
    command: async (body) => {
      const text = String(body.text ?? "")
        .replace(/^\s*\/gpu\b/, "")
        .trim();
      const delivery = await emulator.slashCommand({
        user: userOf(body),
        text,
        channel: PLAYGROUND_CHANNEL.id,
      });
      return { acked: delivery.acked };
    },
    click: async (body) => {
      const args: Parameters<typeof emulator.clickButton>[0] = {
        user: userOf(body),
        actionId: String(body.actionId),
      };
      if (typeof body.value === "string") args.value = body.value;
      if (typeof body.blockId === "string") args.blockId = body.blockId;
      if (typeof body.viewId === "string") args.view = { id: body.viewId };
      else args.message = { channel: String(body.channel), ts: String(body.ts) };
      const delivery = await emulator.clickButton(args);
      return { acked: delivery.acked };
    },
    submit: async (body) => {
      const values = isObject(body.values) ? (body.values as Record<string, Record<string, unknown>>) : {};
      const delivery = await emulator.submitView({ user: userOf(body), viewId: String(body.viewId), values });
      return { acked: delivery.acked };
    },
    close: async (body) => {
      await emulator.closeView({ user: userOf(body), viewId: String(body.viewId) });
      return {};
    },
    home: async (body) => {
      await emulator.event({ type: "app_home_opened", user: userOf(body) });
      return {};
    },
    fleet: async (body) => {
      const mode = String(body.mode) as HostMode;
      if (!HOST_MODES.includes(mode)) throw new BadRequest(`unknown mode ${mode}`);
      fleet.setMode(String(body.host), mode);
      changed();
      await deps.bot()?.pollNow();
      return {};
    },
    clock: async (body) => {
      await clockAction(deps, String(body.action), Number(body.rate));
      changed();
      return clockState(deps);
    },
  };
}

function userOf(body: JsonObject): string {
  const user = String(body.user ?? "");
  if (!PLAYGROUND_USERS.some((known) => known.id === user)) throw new BadRequest(`unknown user ${user}`);
  return user;
}

/**
 * Speeds (1, 60, 600), pause, resume, and the two jumps. A jump holds the job timer, writes the
 * fleet's history over the skipped time and rolls it up (as the bot would have, running), moves
 * the clock, then lets the timer fire what fell due: once each, like a bot catching up.
 */
async function clockAction(deps: PageActionDeps, action: string, rate: number): Promise<void> {
  const { clock } = deps;
  switch (action) {
    case "rate":
      if (!RATES.includes(rate)) throw new BadRequest(`rate must be one of ${RATES.join(", ")}`);
      clock.setRate(rate);
      if (clock.paused) clock.resume();
      return;
    case "pause":
      clock.pause();
      return;
    case "resume":
      clock.resume();
      return;
    case "next-summary":
    case "next-month": {
      const state = clockState(deps);
      const targetMs = action === "next-summary" ? state.nextSummaryMs : state.nextMonthMs;
      if (targetMs === null) throw new BadRequest("the summary is turned off");
      await jumpTo(deps, targetMs + 5_000);
      return;
    }
    default:
      throw new BadRequest(`unknown clock action ${action}`);
  }
}

async function jumpTo(deps: PageActionDeps, targetMs: number): Promise<void> {
  const { clock, timer } = deps;
  const bot = deps.bot();
  if (bot === null) throw new Error("the bot is still starting");
  timer.hold();
  try {
    clock.jumpTo(targetMs);
    const cycles = bot.catchUpSimulated();
    await bot.runNow("rollup");
    await bot.pollNow();
    deps.logger.info({ toMs: targetMs, cycles }, "playground clock jumped");
  } finally {
    timer.release();
  }
}
