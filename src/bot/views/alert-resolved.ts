import type { types } from "@slack/bolt";
import { slotLabel } from "../../shared/gpu-slot.ts";
import type { AlertEnding, ResolvedAlertView } from "../../usecases/alert-words.ts";
import {
  actorText,
  costOver,
  escapeMrkdwn,
  formatDuration,
  formatMoney,
  formatWhen,
  mention,
  truncate,
} from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";

export type { AlertEnding, ResolvedAlertView };

const CAUSE_MAX = 500;

/** The idle alert once it is over: what ended it, how long it lasted, what it cost; no buttons. */
export function resolvedAlertMessage(view: ResolvedAlertView): SlackMessage {
  const { nowMs, timezone } = view;
  const idleMs = view.endedAtMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  const money = burned === null ? "" : `, ${formatMoney(burned, view.currency)}`;
  const span = `Was idle from *${formatWhen(view.idleSinceMs, nowMs, timezone)}* to *${formatWhen(view.endedAtMs, nowMs, timezone)}* (${formatDuration(idleMs)}${money}).`;
  const { title, detail, fallback } = describe(view);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(title, 150) } },
    {
      type: "section",
      text: { type: "mrkdwn", text: truncate(detail === null ? span : `${detail}\n${span}`, 3000) },
    },
    { type: "context", elements: [{ type: "mrkdwn", text: `Times in ${escapeMrkdwn(timezone)}.` }] },
  ];
  return { text: truncate(`${fallback} (idle ${formatDuration(idleMs)}${money})`, 3000), blocks };
}

function describe(view: ResolvedAlertView): { title: string; detail: string | null; fallback: string } {
  const { host, ending, nowMs, timezone } = view;
  const bold = `*${escapeMrkdwn(host)}*`;
  switch (ending.kind) {
    case "busy":
      return { title: `✅ ${host} is busy again`, detail: null, fallback: `✅ ${host} is busy again` };
    case "stopped": {
      const who = actorText(ending.actor);
      const by = who === "automatically" ? who : `by ${who}`;
      if (ending.dryRun) {
        const whose = who === "automatically" ? " (automatic stop)" : ` by ${who}`;
        return {
          title: `🧪 ${host}: stop dry run`,
          detail: `Dry run${whose}: ${bold} was not stopped; the thread shows what would have run.`,
          fallback: `🧪 ${host}: stop dry run${whose}`,
        };
      }
      return {
        title: `🛑 ${host} was stopped`,
        detail: `Stopped ${by}.`,
        fallback: `🛑 ${host} was stopped ${by}`,
      };
    }
    case "suspect": {
      const labels = ending.gpus.map(slotLabel);
      const gpus = labels.length === 1 ? `GPU ${labels[0]} reports` : `GPUs ${labels.join(", ")} report`;
      return {
        title: `❔ ${host}: suspect readings`,
        detail:
          `${bold}: ${gpus} full utilisation with no memory held at idle power, a known driver fault. ` +
          "Not idle, not busy: no alert and no automatic stop while it lasts.",
        fallback: `❔ ${host}: suspect readings`,
      };
    }
    case "unknown": {
      const cause = ending.cause === null ? "" : `: ${escapeMrkdwn(truncate(ending.cause, CAUSE_MAX))}`;
      return {
        title: `❔ ${host}: no data, state unknown`,
        detail: `No data from ${bold}${cause}. Unknown is not idle: no alert and no stop until data is back.`,
        fallback: `❔ ${host}: no data, state unknown`,
      };
    }
    case "snoozed": {
      const until = ending.untilMs === null ? "" : ` until *${formatWhen(ending.untilMs, nowMs, timezone)}*`;
      const by = ending.byUser === null ? "" : ` by ${mention(ending.byUser)}`;
      return {
        title: `⏸ ${host} is kept`,
        detail: `Kept${by}${until}.`,
        fallback: `⏸ ${host} is kept${by}`,
      };
    }
    case "exempt":
      return {
        title: `✅ ${host} is exempt from idle alerts`,
        detail: `${bold} is marked \`never_stop\`.`,
        fallback: `✅ ${host} is exempt from idle alerts`,
      };
    case "policy":
      return {
        title: `✅ ${host} no longer counts as idle`,
        detail: `Under the current policy ${bold} is not idle.`,
        fallback: `✅ ${host} no longer counts as idle`,
      };
    default:
      return ending satisfies never;
  }
}
