import type { types } from "@slack/bolt";
import type { RenewalFlag } from "../../checks/renewal.ts";
import type { Translator } from "../../messages/translator.ts";
import { formatPct } from "../../reports/summary-format.ts";
import { dayjs } from "../../shared/time.ts";
import type { ReclaimCase } from "../../store/reclaim-store.ts";
import type { ReclaimMessageContext } from "../../usecases/reclaim-words.ts";
import { RECLAIM_ACTION_IDS, reclaimValue } from "../ids.ts";
import { escapeMrkdwn, mention } from "./alert-format.ts";
import { actions, button, context, type Reply, section } from "./reply-message.ts";

export type { ReclaimMessageContext };

const date = (ms: number, zone: string) => dayjs(ms).tz(zone).format("ddd D MMM");

function noWarden(context_: ReclaimMessageContext): types.KnownBlock[] {
  return context_.warden === null
    ? [context("No cost warden is set (`warden.roster` in the config), so this goes to the channel.")]
    : [];
}

/** To the warden: a host became pending reclaim. */
export function reclaimPendingMessage(entry: ReclaimCase, ctx: ReclaimMessageContext): Reply {
  const host = escapeMrkdwn(entry.host);
  const text =
    `${host} is pending reclaim: its mean GPU utilisation over the last 30 days was ` +
    `${formatPct(entry.windowMeanPct)}, below ${formatPct(ctx.belowPct)}.`;
  return {
    text,
    blocks: [
      section(
        `:mag: *${text}*\nIt is watched until ${date(entry.observeUntilMs, ctx.timezone)}: a day at or above ` +
          `${formatPct(ctx.belowPct)} clears it. Then you decide: stop it, lend it to someone, or keep it (with a reason).`,
      ),
      ...noWarden(ctx),
    ],
  };
}

/** To the warden: use came back, the case is closed. */
export function reclaimClearedMessage(
  entry: ReclaimCase,
  dayStartMs: number,
  dayMeanPct: number,
  ctx: ReclaimMessageContext,
): Reply {
  const text =
    `${escapeMrkdwn(entry.host)} is no longer pending reclaim: it averaged ${formatPct(dayMeanPct)} ` +
    `on ${date(dayStartMs, ctx.timezone)}.`;
  return { text, blocks: [section(`:white_check_mark: ${text}`), ...noWarden(ctx)] };
}

/** To the warden: observation is over; decide with the buttons. */
export function reclaimDecisionMessage(entry: ReclaimCase, ctx: ReclaimMessageContext): Reply {
  const host = escapeMrkdwn(entry.host);
  const text = `Decide about ${host}: still under ${formatPct(ctx.belowPct)} after ${observedDays(entry)} days of observation.`;
  const value = reclaimValue(entry.id, entry.host);
  return {
    text,
    blocks: [
      section(
        `:scales: *${text}*\nPending reclaim since ${date(entry.startedAtMs, ctx.timezone)} (30-day mean ` +
          `${formatPct(entry.windowMeanPct)}); no day of sustained use since. Stop it, lend it to a person or a ` +
          "project (who then owns it), or keep it with a reason.",
      ),
      actions([
        button({
          actionId: RECLAIM_ACTION_IDS.stop,
          text: `Stop ${entry.host}`,
          value,
          style: "danger",
          confirm: {
            title: `Stop ${entry.host}?`,
            text: `Runs ${host}'s stop action now (it is re-checked first: a busy host is not stopped).`,
            confirm: "Stop it",
            deny: "Cancel",
          },
        }),
        button({ actionId: RECLAIM_ACTION_IDS.lend, text: "Lend to…", value }),
        button({ actionId: RECLAIM_ACTION_IDS.keep, text: "Keep…", value }),
      ]),
      ...noWarden(ctx),
    ],
  };
}

/** The decision message once decided (replaces the buttons), and the channel note. */
export function reclaimDecidedMessage(entry: ReclaimCase, timezone: string): Reply {
  const text = `${escapeMrkdwn(entry.host)}: ${decisionWords(entry)}.`;
  const at =
    entry.endedAtMs === null ? "" : ` (${dayjs(entry.endedAtMs).tz(timezone).format("ddd D MMM HH:mm")})`;
  return { text, blocks: [section(`:ballot_box_with_check: ${text}${at}`)] };
}

/** `kept by @w: "training data prep next week"`, `lent to @bob (project llm-eval) by @w`, … */
export function decisionWords(entry: ReclaimCase): string {
  const by = entry.decidedBy === null ? "" : ` by ${actor(entry.decidedBy)}`;
  switch (entry.state) {
    case "pending":
      return `pending reclaim until ${dayjs(entry.observeUntilMs).toISOString().slice(0, 10)}`;
    case "due":
      return "waiting for the cost warden's decision";
    case "cleared":
      return "reclaim cleared: in use again";
    case "stopped":
      return `stopped${by}${entry.detail.dryRun === true ? " (dry run: nothing ran)" : ""}`;
    case "lent": {
      const owner = typeof entry.detail.owner === "string" ? mention(entry.detail.owner) : null;
      const project =
        typeof entry.detail.project === "string" ? `project ${escapeMrkdwn(entry.detail.project)}` : null;
      const to =
        owner !== null && project !== null ? `${owner} (${project})` : (owner ?? project ?? "someone");
      return `lent to ${to}${by}`;
    }
    case "kept": {
      const reason =
        typeof entry.detail.reason === "string" ? `: “${escapeMrkdwn(entry.detail.reason)}”` : "";
      return `kept${by}${reason}`;
    }
    default:
      return entry.state satisfies never;
  }
}

/** To the warden: rented or cloud hosts not worth renewing. */
export function renewalMessage(
  tr: Translator,
  flags: readonly RenewalFlag[],
  belowPct: number,
  warden: string | null,
): Reply {
  const lines = flags.map(
    (flag) =>
      `• ${tr.t("summary.renewal.line", {
        host: `*${escapeMrkdwn(flag.host)}*`,
        current: formatPct(flag.currentUtilPct),
        previous: formatPct(flag.previousUtilPct),
      })}`,
  );
  const text = tr.t("summary.renewal.text", { count: flags.length, pct: formatPct(belowPct) });
  const blocks: types.KnownBlock[] = [section(`:receipt: *${text}*\n${lines.slice(0, 30).join("\n")}`)];
  if (lines.length > 30) blocks.push(context(tr.t("summary.renewal.more", { count: lines.length - 30 })));
  if (warden === null) blocks.push(context(tr.t("summary.renewal.noWarden")));
  return { text, blocks };
}

/** A short status line for `/gpu status`: `pending reclaim since Mon 3 Feb, decision due Mon 17 Feb`. */
export function reclaimStatusWords(entry: ReclaimCase, timezone: string): string {
  if (entry.state === "pending") {
    return `pending reclaim since ${date(entry.startedAtMs, timezone)}, decision due ${date(entry.observeUntilMs, timezone)}`;
  }
  if (entry.state === "due") {
    return `pending reclaim: waiting for the cost warden's decision since ${date(entry.dueAtMs ?? entry.observeUntilMs, timezone)}`;
  }
  return `last reclaim ${decisionWords(entry)}${entry.endedAtMs === null ? "" : ` on ${date(entry.endedAtMs, timezone)}`}`;
}

function observedDays(entry: ReclaimCase): number {
  return Math.round((entry.observeUntilMs - entry.startedAtMs) / 86_400_000);
}

function actor(user: string): string {
  return /^[UW][A-Z0-9]{2,}$/.test(user) ? mention(user) : escapeMrkdwn(user);
}
