import type { types } from "@slack/bolt";
import { type ClaimGroup, groupClaims } from "../../checks/claim-groups.ts";
import { formatGpuList, slotsText } from "../../checks/claim-target.ts";
import { formatDuration } from "../../shared/duration.ts";
import { migParts } from "../../shared/gpu-slot.ts";
import type { Claim } from "../../store/claim-store.ts";
import type { QueueRequest, QueueWant } from "../../store/queue-store.ts";
import { listWords, localWhen, mention, slackEscape } from "../../usecases/action-text.ts";
import { noteWords } from "../../usecases/claim-text.ts";
import type {
  ClaimOrWaitResult,
  ConfirmGrantResult,
  JoinQueueResult,
  QueueView,
} from "../../usecases/queue-requests.ts";
import { ACTION_IDS, claimIdsValue, type QueueWaitValue, queueRequestValue, queueWaitValue } from "../ids.ts";
import type { DmClock } from "./claim-dm.ts";
import { claimReply } from "./claim-reply.ts";
import { actions, button, context, errorReply, type Reply, section, textReply } from "./reply-message.ts";

/** `gpu-a:0,1`, `gpu-a`, `2 A100 GPUs`, `1 GPU`. */
export function wantWords(want: QueueWant): string {
  if (want.kind === "slots") return slotsText(want);
  const model = want.model === null ? "" : ` ${slackEscape(want.model)}`;
  return `${want.count}${model} ${want.count === 1 ? "GPU" : "GPUs"}`;
}

/** `CUDA_VISIBLE_DEVICES=0,1`, or `null` for a whole host or MIG instances (named by UUID, not index). */
export function cudaVisibleDevices(group: Pick<ClaimGroup, "gpus">): string | null {
  if (group.gpus === null || group.gpus.some((index) => migParts(index) !== null)) return null;
  return `CUDA_VISIBLE_DEVICES=${group.gpus.join(",")}`;
}

/**
 * The grant DM: which host and GPUs are now the person's, `CUDA_VISIBLE_DEVICES=…` for each host,
 * until when, and by when to confirm, with *Confirm* / *Extend 4 h* / *Release*.
 */
export function queueGrantDm(
  request: QueueRequest,
  claims: readonly Claim[],
  confirmByMs: number,
  at: DmClock,
): Reply {
  const groups = groupClaims(claims);
  const what = listWords(groups.map(slotsText), "and");
  const until = localWhen(claims[0]?.untilMs ?? at.nowMs, at.nowMs, at.zone);
  const hostLines = groups.map((group) => {
    const cuda = cudaVisibleDevices(group);
    const gpus = group.gpus === null ? "all GPUs" : `GPU ${formatGpuList(group.gpus)}`;
    return `• *${group.host}*, ${gpus}${cuda === null ? "" : `: \`${cuda}\``}`;
  });
  const confirmBy = localWhen(confirmByMs, at.nowMs, at.zone);
  const text =
    `🎉 Your turn: *${what}* ${claims.length === 1 ? "is" : "are"} yours until *${until}* ` +
    `(${formatDuration(request.durationMs)})${noteWords(request.note)}.\n${hostLines.join("\n")}`;
  const ids = claimIdsValue(claims.map((claim) => claim.id));
  return {
    text: `${what} is yours until ${until}`,
    blocks: [
      section(text),
      context(`Confirm by ${confirmBy}, or it passes to the next in line.`),
      actions([
        button({
          actionId: ACTION_IDS.queueConfirm,
          text: "Confirm",
          value: queueRequestValue(request.id),
          style: "primary",
        }),
        button({ actionId: ACTION_IDS.claimExtend4h, text: "Extend 4 h", value: ids }),
        button({ actionId: ACTION_IDS.claimRelease, text: "Release", value: ids }),
      ]),
    ],
  };
}

/** The DM when a grant was not confirmed in time and went to the next in line. */
export function queueLapsedDm(request: QueueRequest, released: readonly Claim[], at: DmClock): Reply {
  const what = listWords(groupClaims(released).map(slotsText), "and");
  const when = localWhen(request.confirmByMs ?? at.nowMs, at.nowMs, at.zone);
  return textReply(
    `⌛ ${what} was not confirmed by ${when}, so it passed to the next in line. \`/gpu claim ${wantWords(request.want)} --wait\` queues you again.`,
  );
}

/** The *Wait for it* button for a conflict answer to a claim request. */
export function waitButton(value: QueueWaitValue): ReturnType<typeof button> {
  return button({ actionId: ACTION_IDS.queueWait, text: "Wait for it", value: queueWaitValue(value) });
}

/** The answer to joining the waiting list (`--wait` or *Wait for it*). */
export function joinQueueReply(result: JoinQueueResult, slashCommand: string): Reply {
  switch (result.kind) {
    case "queued":
    case "already-waiting": {
      const what = wantWords(result.request.want);
      const lead = result.kind === "queued" ? "You are in line" : "You are already in line";
      const ahead = result.position === 1 ? "next" : `number ${result.position}`;
      return textReply(
        `${lead} for ${what} (${formatDuration(result.request.durationMs)})${noteWords(result.request.note)}: ` +
          `${ahead}. I'll DM you when it is yours; \`${slashCommand} queue cancel\` leaves the line.`,
      );
    }
    case "granted":
      return textReply(
        `${listWords(groupClaims(result.claims).map(slotsText), "and")} was free: it is yours, see the DM to confirm.`,
      );
    case "too-long":
      return errorReply(
        `A claim lasts at most ${formatDuration(result.maxMs)}; you asked for ${formatDuration(result.durationMs)}.`,
        "claim",
        slashCommand,
      );
    default:
      return result satisfies never;
  }
}

/** The answer to `/gpu claim … --wait`. */
export function claimOrWaitReply(result: ClaimOrWaitResult, slashCommand: string): Reply {
  return result.kind === "claim"
    ? claimReply(result.result, slashCommand)
    : joinQueueReply(result.result, slashCommand);
}

/** `/gpu queue`: the line with positions (the asker's marked), then grants awaiting *Confirm*. */
export function queueListReply(view: QueueView, asker: string, at: DmClock, slashCommand: string): Reply {
  if (view.waiting.length === 0 && view.awaitingConfirm.length === 0) {
    return textReply(`Nobody is waiting. \`${slashCommand} claim 2 a100 for 8h --wait\` joins the line.`);
  }
  const shown = view.waiting.slice(0, 40).map(({ request, position }) => {
    const mine = request.user === asker ? " ← you" : "";
    return (
      `${position}. ${mention(request.user)}: ${wantWords(request.want)} for ${formatDuration(request.durationMs)}` +
      `${noteWords(request.note)}, since ${localWhen(request.createdAtMs, at.nowMs, at.zone)}${mine}`
    );
  });
  const more = view.waiting.length > 40 ? [`… and ${view.waiting.length - 40} more`] : [];
  const granted = view.awaitingConfirm.map(
    (request) =>
      `${mention(request.user)}: ${wantWords(request.want)}, granted, to confirm by ${localWhen(request.confirmByMs ?? at.nowMs, at.nowMs, at.zone)}`,
  );
  const lines = [
    view.waiting.length === 0 ? "Nobody is waiting." : `*Waiting (${view.waiting.length})*`,
    ...shown,
    ...more,
    ...(granted.length > 0 ? ["*Granted, awaiting Confirm*", ...granted] : []),
  ];
  const mine = view.waiting.some(({ request }) => request.user === asker);
  const blocks: types.KnownBlock[] = [section(lines.join("\n"))];
  if (mine) blocks.push(context(`\`${slashCommand} queue cancel\` takes you out of line.`));
  return { text: lines.join("\n").slice(0, 3000), blocks };
}

/** `/gpu queue cancel`. */
export function queueCancelReply(cancelled: readonly QueueRequest[]): Reply {
  if (cancelled.length === 0) return textReply("You are not in line.");
  return textReply(
    `You left the line for ${listWords(
      cancelled.map((request) => wantWords(request.want)),
      "and",
    )}.`,
  );
}

/** *Confirm* on a grant DM. */
export function confirmGrantReply(result: ConfirmGrantResult, at: DmClock): Reply {
  switch (result.kind) {
    case "confirmed": {
      const groups = groupClaims(result.claims);
      const until = localWhen(result.claims[0]?.untilMs ?? at.nowMs, at.nowMs, at.zone);
      const cuda = groups.flatMap((group) => {
        const line = cudaVisibleDevices(group);
        return line === null ? [] : [`${group.host}: \`${line}\``];
      });
      return {
        text: `${listWords(groups.map(slotsText), "and")} is yours until ${until}.`,
        blocks: [
          section(
            `✅ ${listWords(groups.map(slotsText), "and")} is yours until *${until}*.${cuda.length > 0 ? `\n${cuda.join("\n")}` : ""}`,
          ),
          actions([
            button({
              actionId: ACTION_IDS.claimExtend4h,
              text: "Extend 4 h",
              value: claimIdsValue(result.claims.map((c) => c.id)),
            }),
            button({
              actionId: ACTION_IDS.claimRelease,
              text: "Release",
              value: claimIdsValue(result.claims.map((c) => c.id)),
            }),
          ]),
        ],
      };
    }
    case "not-yours":
      return textReply("That grant is someone else's.");
    case "gone":
      return textReply(
        result.request?.state === "confirmed" ? "You have confirmed it already." : "That grant has ended.",
      );
    default:
      return result satisfies never;
  }
}
