import type { types } from "@slack/bolt";
import { slotsText } from "../../checks/claim-target.ts";
import { type Translator, translator } from "../../messages/translator.ts";
import { formatDuration } from "../../shared/duration.ts";
import { localWhen, mention } from "../../usecases/action-text.ts";
import { noteWords } from "../../usecases/claim-text.ts";
import type { HomeHost, HomeModel } from "../../usecases/read-home.ts";
import { claimButtons } from "./claim-dm.ts";
import { omittedWords, pushHostGroups } from "./host-groups.ts";
import { context, section } from "./reply-message.ts";
import { summaryLine } from "./status-fleet.ts";
import { claimsWords, statusWords, unclaimedWords } from "./status-words.ts";

/** Slack's limit for a Home tab. */
export const HOME_MAX_BLOCKS = 100;
/** Claims listed with buttons; the rest are counted. */
const CLAIMS_SHOWN = 10;
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
export function homeView(model: HomeModel, slashCommand: string): HomeView {
  const { nowMs, zone } = model;
  const when = (ms: number) => localWhen(ms, nowMs, zone);
  const blocks: types.KnownBlock[] = [{ type: "header", text: { type: "plain_text", text: "GPU Warden" } }];
  if (model.notice !== null) blocks.push(context(model.notice));

  if (model.mine.length === 0) {
    blocks.push(
      section(
        `*Your claims:* none. \`${slashCommand} claim <host>[:<gpus>] [for <duration>]\` or ` +
          `\`${slashCommand} claim <n> [<model>]\` takes GPUs; claims last ${formatDuration(model.rules.defaultMs)} ` +
          `unless you say otherwise.`,
      ),
    );
  } else {
    blocks.push(section(`*Your claims* (${model.mine.length})`));
    for (const { group, gpus } of model.mine.slice(0, CLAIMS_SHOWN)) {
      const util = gpus.length === 0 ? "" : ` · now ${utilList(gpus.map((gpu) => gpu.utilPct))}`;
      blocks.push(
        section(
          `*${slotsText(group)}*${noteWords(group.note)} until *${when(group.untilMs)}* ` +
            `(${formatDuration(group.untilMs - nowMs)} left)${util}`,
        ),
      );
      blocks.push(claimButtons(group));
    }
    const more = model.mine.length - CLAIMS_SHOWN;
    if (more > 0) blocks.push(context(`…and ${more} more: \`${slashCommand} mine\` lists them all.`));
  }
  blocks.push({ type: "divider" });
  blocks.push(
    section(
      model.warden === null
        ? "*Cost warden:* nobody this month (set `warden.roster` in the config)."
        : `*Cost warden this month:* ${mention(model.warden)}`,
    ),
  );
  blocks.push({ type: "divider" });
  const summaries = model.hosts.map((host) => host.summary);
  blocks.push(section(`*Fleet* · ${summaryLine(english(zone), summaries)}`));
  blocks.push(
    context(`As of ${when(nowMs)} (${zone}) · \`${slashCommand} status <host>\` shows one host in detail`),
  );
  board(model, blocks, slashCommand);
  return { type: "home", callback_id: "home", blocks };
}

function board(model: HomeModel, blocks: types.KnownBlock[], slashCommand: string): void {
  const omitted = pushHostGroups(english(model.zone), blocks, model.hosts, {
    statusOf: (host) => host.summary.status,
    lineOf: (host) => hostLine(host, model.nowMs, model.zone),
    maxBlocks: HOME_MAX_BLOCKS - 1,
    budgetChars: BOARD_BUDGET_CHARS,
  });
  if (omitted.length > 0) {
    blocks.push(
      context(
        `${omittedWords(english(model.zone), omitted)}: \`${slashCommand} status <host>\` shows any of them.`,
      ),
    );
  }
}

/** `• *gpu-a* idle since 10:00 (2 h) · util \`0 0 97 –\` % · GPU 0 claimed by @bob until 11:08`. */
function hostLine(host: HomeHost, nowMs: number, zone: string): string {
  const { summary } = host;
  const tr = english(zone);
  const parts = [statusWords(tr, summary, nowMs)];
  const known = summary.status !== "unknown" && summary.status !== "never-seen";
  if (known && host.gpus.length > 0) parts.push(`util ${utilList(host.gpus.map((gpu) => gpu.utilPct))}`);
  if (summary.claims.length > 0) parts.push(claimsWords(tr, summary.claims, nowMs));
  if (summary.unclaimedBusy.length > 0) parts.push(unclaimedWords(tr, summary.unclaimedBusy));
  if (summary.openAlert !== null) parts.push("alert open");
  return `• *${summary.host}* ${parts.join(" · ")}`;
}

/** The status words' translator until the App Home has its reader's (currency unused here). */
function english(zone: string): Translator {
  return translator({ language: "en", timeZone: zone, currency: "USD" });
}

/** `` `0 0 97 –` % ``: each GPU's utilisation now, `–` where there is no reading. */
function utilList(utilPcts: ReadonlyArray<number | null>): string {
  return `\`${utilPcts.map((pct) => (pct === null ? "–" : String(Math.round(pct)))).join(" ")}\` %`;
}
