import { slotsText } from "../../checks/claim-target.ts";
import { formatDuration } from "../../shared/duration.ts";
import { localWhen } from "../../usecases/action-text.ts";
import type { ClaimGpusResult, ClaimTarget } from "../../usecases/claim-gpus.ts";
import { noteWords } from "../../usecases/claim-text.ts";
import type { ExtendResult } from "../../usecases/extend-claims.ts";
import type { HomeClaim } from "../../usecases/read-home.ts";
import type { ReleaseResult } from "../../usecases/release-claims.ts";
import { ACTION_IDS, claimIdsValue, queueWaitValue, slotsValue } from "../ids.ts";
import { claimButtons } from "./claim-dm.ts";
import {
  actions,
  button,
  context,
  errorReply,
  LIMITS,
  type Reply,
  section,
  textReply,
} from "./reply-message.ts";

/** What was asked for, so that a conflict answer can offer *Wait for it* with the same request. */
export interface AskedClaim {
  target: ClaimTarget;
  durationMs: number | null;
  note: string;
}

/** *Wait for it*: joins the waiting list with the request that met the conflict. */
function waitButton(asked: AskedClaim): ReturnType<typeof button> {
  const { target } = asked;
  const want =
    target.kind === "count"
      ? { kind: "count" as const, count: target.count, model: target.model }
      : {
          kind: "slots" as const,
          host: target.slots.host,
          gpus: target.slots.gpus === null ? null : [...target.slots.gpus],
        };
  return button({
    actionId: ACTION_IDS.queueWait,
    text: "Wait for it",
    value: queueWaitValue({ want, durationMs: asked.durationMs, note: asked.note }),
    style: "primary",
  });
}

/**
 * The answer to `/gpu claim` (and the claim buttons). A conflict says who holds it, until when and
 * with what note, with *Wait for it* (a place in line: granted first come first served) when what
 * was asked is known, *Notify me when free* (a DM, no place kept), and for the cost warden or an
 * admin *Release it*. Too few free GPUs offers *Wait for it* too.
 */
export function claimReply(result: ClaimGpusResult, slashCommand: string, asked?: AskedClaim): Reply {
  switch (result.kind) {
    case "claimed":
    case "already-yours":
    case "reserved":
      return textReply(result.text);
    case "short":
      return asked === undefined
        ? textReply(result.text)
        : { text: textReply(result.text).text, blocks: [section(result.text), actions([waitButton(asked)])] };
    case "invalid":
      return errorReply(result.text, "claim", slashCommand);
    case "held": {
      const elements = [
        ...(asked === undefined ? [] : [waitButton(asked)]),
        button({
          actionId: ACTION_IDS.claimNotify,
          text: "Notify me when free",
          value: slotsValue(result.slots.host, result.slots.gpus),
          ...(asked === undefined ? { style: "primary" as const } : {}),
        }),
      ];
      if (result.forceable) {
        const ids = result.holders.flatMap((group) => group.claimIds);
        elements.push(
          button({
            actionId: ACTION_IDS.claimForceRelease,
            text: "Release it (force)",
            value: claimIdsValue(ids),
            style: "danger",
            confirm: {
              title: "Release someone else's claim?",
              text: `${result.text} The holder gets a DM saying you released it.`,
              confirm: "Release it",
              deny: "Cancel",
            },
          }),
        );
      }
      return { text: textReply(result.text).text, blocks: [section(result.text), actions(elements)] };
    }
    default:
      return result satisfies never;
  }
}

/** The answer to `/gpu release` and the Release buttons. */
export function releaseReply(result: ReleaseResult, slashCommand: string): Reply {
  return result.kind === "invalid"
    ? errorReply(result.text, "release", slashCommand)
    : textReply(result.text);
}

/** The answer to `/gpu extend` and *Extend 4 h*. */
export function extendReply(result: ExtendResult, slashCommand: string): Reply {
  return result.kind === "invalid" ? errorReply(result.text, "extend", slashCommand) : textReply(result.text);
}

/** Claims listed with buttons in one ephemeral message (2 blocks each, within the 50 blocks). */
const MINE_SHOWN = 20;

/** `/gpu mine`: each claim with its end, note and GPUs' utilisation now, and *Extend 4 h* / *Release*. */
export function mineReply(
  claims: readonly HomeClaim[],
  nowMs: number,
  zone: string,
  slashCommand: string,
): Reply {
  if (claims.length === 0) {
    return textReply(`You hold no claims. \`${slashCommand} claim gpu-a:0 for 4h\` takes a GPU.`);
  }
  const blocks: NonNullable<Reply["blocks"]> = [section(`*Your claims* (${claims.length})`)];
  for (const { group, gpus } of claims.slice(0, MINE_SHOWN)) {
    const util =
      gpus.length === 0
        ? ""
        : ` · now \`${gpus.map((gpu) => (gpu.utilPct === null ? "–" : String(Math.round(gpu.utilPct)))).join(" ")}\` %`;
    blocks.push(
      section(
        `*${slotsText(group)}*${noteWords(group.note)} until *${localWhen(group.untilMs, nowMs, zone)}* ` +
          `(${formatDuration(group.untilMs - nowMs)} left)${util}`,
      ),
    );
    blocks.push(claimButtons(group));
  }
  if (claims.length > MINE_SHOWN) {
    blocks.push(
      context(`…and ${claims.length - MINE_SHOWN} more; \`${slashCommand} release all\` ends them all.`),
    );
  }
  const lines = claims.map(
    ({ group }) => `${slotsText(group)} until ${localWhen(group.untilMs, nowMs, zone)}`,
  );
  return {
    text: textReply(`Your claims: ${lines.join(", ")}`).text.slice(0, LIMITS.messageTextChars),
    blocks,
  };
}
