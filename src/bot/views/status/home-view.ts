import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type { HomeHost, HomeModel } from "../../../usecases/fleet/read-home.ts";
import { mention } from "../../../usecases/power/action-text.ts";
import { ACTION_IDS, stopValue } from "../../ids.ts";
import { claimButtons } from "../claims/claim-dm.ts";
import { commandExample, whenIn } from "../claims/claim-phrases.ts";
import { claimLineIn, utilList } from "../claims/claim-reply.ts";
import { actions, button, context, section } from "../reply-message.ts";
import { omittedWords, pushHostGroups } from "./host-groups.ts";
import { summaryLine } from "./status-fleet.ts";
import { claimsWords, statusWords, unclaimedWords } from "./status-words.ts";

/** Slack's limit for a Home tab. */
export const HOME_MAX_BLOCKS = 100;
/** Claims listed with buttons; the rest are counted. */
const CLAIMS_SHOWN = 10;
/** Slack's limit of elements in one actions block. */
const START_BUTTONS_SHOWN = 25;
/** All the board's text together: well inside the 250 kB a view may take. */
const BOARD_BUDGET_CHARS = 60_000;

/** A `views.publish` view of type `home`. */
export interface HomeView {
  type: "home";
  callback_id: string;
  blocks: types.KnownBlock[];
}

/**
 * The App Home: the user's claims, each with *Extend 4 h* / *Release*; the cost warden of the month;
 * the fleet board (each host: status and idle since, every GPU's utilisation now, claims, GPUs in use
 * without a claim). At most {@link HOME_MAX_BLOCKS} blocks for any fleet size: hosts that do not fit
 * are counted per group at the end. Pure.
 */
export function homeView(tr: Translator, model: HomeModel, slashCommand: string): HomeView {
  const { nowMs } = model;
  // NOTE: the product's name, not a sentence: the same in every language.
  const blocks: types.KnownBlock[] = [{ type: "header", text: { type: "plain_text", text: "GPU Warden" } }];
  if (model.notice !== null) blocks.push(context(model.notice));
  pushMine(tr, model, blocks, slashCommand);
  blocks.push({ type: "divider" });
  blocks.push(
    section(
      model.warden === null
        ? `*${tr.t("home.warden.noneTitle")}* ${tr.t("home.warden.none", { key: "`warden.roster`" })}`
        : `*${tr.t("home.warden.title")}* ${mention(model.warden)}`,
    ),
  );
  blocks.push({ type: "divider" });
  const summaries = model.hosts.map((host) => host.summary);
  blocks.push(section(`*${tr.t("home.fleet")}* · ${summaryLine(tr, summaries)}`));
  blocks.push(
    context(
      tr.t("home.asOf", {
        at: whenIn(tr, nowMs, nowMs),
        zone: model.zone,
        example: commandExample(slashCommand, "status <host>"),
      }),
    ),
  );
  pushStartButtons(tr, model.startable ?? [], blocks);
  board(tr, model, blocks, slashCommand);
  return { type: "home", callback_id: "home", blocks };
}

/** *Start gpu-a* for the hosts the bot stopped (at most a Slack actions block's worth). */
function pushStartButtons(tr: Translator, hosts: readonly string[], blocks: types.KnownBlock[]): void {
  if (hosts.length === 0) return;
  const buttons = hosts.slice(0, START_BUTTONS_SHOWN).map((host) =>
    button({
      actionId: ACTION_IDS.startHost,
      text: tr.t("start.button.host", { host }),
      value: stopValue(host),
    }),
  );
  blocks.push(actions(buttons));
}

/** The user's claims, each with *Extend 4 h* / *Release*, or how to take some. */
function pushMine(tr: Translator, model: HomeModel, blocks: types.KnownBlock[], slashCommand: string): void {
  if (model.mine.length === 0) {
    const none = tr.t("home.mine.none", {
      claimHost: commandExample(slashCommand, "claim <host>[:<gpus>] [for <duration>]"),
      claimCount: commandExample(slashCommand, "claim <n> [<model>]"),
      duration: tr.duration(model.rules.defaultMs),
    });
    blocks.push(section(`*${tr.t("home.mine.noneTitle")}* ${none}`));
    return;
  }
  blocks.push(section(`*${tr.t("claim.mine.title")}* (${model.mine.length})`));
  for (const claim of model.mine.slice(0, CLAIMS_SHOWN)) {
    blocks.push(section(claimLineIn(tr, claim, model.nowMs)));
    blocks.push(claimButtons(tr, claim.group));
  }
  const more = model.mine.length - CLAIMS_SHOWN;
  if (more > 0) {
    blocks.push(
      context(tr.t("home.mine.more", { count: more, example: commandExample(slashCommand, "mine") })),
    );
  }
}

function board(tr: Translator, model: HomeModel, blocks: types.KnownBlock[], slashCommand: string): void {
  const omitted = pushHostGroups(tr, blocks, model.hosts, {
    statusOf: (host) => host.summary.status,
    lineOf: (host) => hostLine(tr, host, model.nowMs),
    maxBlocks: HOME_MAX_BLOCKS - 1,
    budgetChars: BOARD_BUDGET_CHARS,
  });
  if (omitted.length > 0) {
    blocks.push(
      context(
        tr.t("home.board.omitted", {
          omitted: omittedWords(tr, omitted),
          example: commandExample(slashCommand, "status <host>"),
        }),
      ),
    );
  }
}

/** `• *gpu-a* idle since 10:00 (2 h) · util \`0 0 97 –\` % · GPU 0 claimed by @bob until 11:08`. */
function hostLine(tr: Translator, host: HomeHost, nowMs: number): string {
  const { summary } = host;
  const parts = [statusWords(tr, summary, nowMs)];
  const known = summary.status !== "unknown" && summary.status !== "never-seen";
  if (known && host.gpus.length > 0) {
    parts.push(tr.t("home.board.util", { utils: utilList(host.gpus.map((gpu) => gpu.utilPct)) }));
  }
  if (summary.claims.length > 0) parts.push(claimsWords(tr, summary.claims, nowMs));
  if (summary.unclaimedBusy.length > 0) parts.push(unclaimedWords(tr, summary.unclaimedBusy));
  if (summary.openAlert !== null) parts.push(tr.t("home.board.alertOpen"));
  return `• *${summary.host}* ${parts.join(" · ")}`;
}
