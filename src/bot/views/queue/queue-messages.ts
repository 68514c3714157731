import type { types } from "@slack/bolt";
import { type ClaimGroup, groupClaims } from "../../../checks/claim-groups.ts";
import { formatGpuList, slotsText } from "../../../checks/claim-target.ts";
import type { Claim } from "../../../domain/claim.ts";
import type { QueueRequest, QueueWant } from "../../../domain/queue-request.ts";
import type { Translator } from "../../../messages/translator.ts";
import { migParts } from "../../../shared/gpu-slot.ts";
import { mention, slackEscape } from "../../../usecases/power/action-text.ts";
import type {
  ClaimOrWaitResult,
  ConfirmGrantResult,
  JoinQueueResult,
  QueueView,
} from "../../../usecases/queue/queue-requests.ts";
import {
  ACTION_IDS,
  claimIdsValue,
  type QueueWaitValue,
  queueRequestValue,
  queueWaitValue,
} from "../../ids.ts";
import type { DmClock } from "../claims/claim-dm.ts";
import { commandExample, listIn, noteIn, slotsListIn, whenIn } from "../claims/claim-phrases.ts";
import { claimProblemIn } from "../claims/claim-problem-words.ts";
import { claimReply } from "../claims/claim-reply.ts";
import { commandErrorReply } from "../command-error.ts";
import { actions, button, context, type Reply, section, textReply } from "../reply-message.ts";
import { visibleLines } from "./queue-visible-lines.ts";

/** `gpu-a:0,1`, `gpu-a`, `2 A100 GPUs`, `1 GPU`, `2 GPUs with at least 40 GiB, in the valley hours only`. */
export function wantWords(tr: Translator, want: QueueWant): string {
  if (want.kind === "slots") return slotsText(want);
  const what =
    want.model === null
      ? tr.t("queue.want.count", { count: want.count })
      : tr.t("queue.want.countModel", { count: want.count, model: slackEscape(want.model) });
  const floored =
    want.floorMiB === undefined
      ? what
      : tr.t("queue.want.floor", { what, gib: Math.round(want.floorMiB / 1024) });
  return want.valley === true ? tr.t("queue.want.valley", { what: floored }) : floored;
}

/** The want as `/gpu claim` takes it: `gpu-a:0,1`, `2 a100`, `1`, `2 gpus>=40g --valley`. */
function wantCommand(want: QueueWant): string {
  if (want.kind === "slots") return slotsText(want);
  const floor = want.floorMiB === undefined ? "" : ` gpus>=${Math.round(want.floorMiB / 1024)}g`;
  const valley = want.valley === true ? " --valley" : "";
  return `${want.model === null ? String(want.count) : `${want.count} ${want.model}`}${floor}${valley}`;
}

/** `CUDA_VISIBLE_DEVICES=0,1`, or `null` for a whole host or MIG instances (named by UUID, not index). */
export function cudaVisibleDevices(group: Pick<ClaimGroup, "gpus">): string | null {
  if (group.gpus === null || group.gpus.some((index) => migParts(index) !== null)) return null;
  return `CUDA_VISIBLE_DEVICES=${group.gpus.join(",")}`;
}

/** *Extend 4 h* and *Release* for granted claims (and *Confirm* first when `confirm` is given). */
function grantButtons(tr: Translator, claims: readonly Claim[], confirm?: number): types.ActionsBlock {
  const ids = claimIdsValue(claims.map((claim) => claim.id));
  return actions([
    ...(confirm === undefined
      ? []
      : [
          button({
            actionId: ACTION_IDS.queueConfirm,
            text: tr.t("queue.button.confirm"),
            value: queueRequestValue(confirm),
            style: "primary" as const,
          }),
        ]),
    button({ actionId: ACTION_IDS.claimExtend4h, text: tr.t("claim.button.extend4h"), value: ids }),
    button({ actionId: ACTION_IDS.claimRelease, text: tr.t("claim.button.release"), value: ids }),
  ]);
}

/**
 * The grant DM: which host and GPUs are now the person's, `CUDA_VISIBLE_DEVICES=…` for each host,
 * until when, and by when to confirm, with *Confirm* / *Extend 4 h* / *Release*.
 */
export function queueGrantDm(
  tr: Translator,
  request: QueueRequest,
  claims: readonly Claim[],
  confirmByMs: number,
  at: DmClock,
): Reply {
  const groups = groupClaims(claims);
  const what = slotsListIn(tr, groups);
  const until = whenIn(tr, claims[0]?.untilMs ?? at.nowMs, at.nowMs);
  const hostLines = groups.map((group) => {
    const cuda = cudaVisibleDevices(group);
    const gpus =
      group.gpus === null
        ? tr.t("queue.grant.allGpus")
        : tr.t("queue.grant.gpus", { list: formatGpuList(group.gpus) });
    return `• *${group.host}*, ${gpus}${cuda === null ? "" : `: \`${cuda}\``}`;
  });
  const text = tr.t("queue.grant", {
    what: `*${what}*`,
    count: claims.length,
    until: `*${until}*`,
    duration: tr.duration(request.durationMs),
    note: noteIn(tr, request.note),
  });
  return {
    text: tr.t("queue.grant.fallback", { what, until }),
    blocks: [
      section(`${text}\n${hostLines.join("\n")}`),
      context(tr.t("queue.grant.confirmBy", { at: whenIn(tr, confirmByMs, at.nowMs) })),
      grantButtons(tr, claims, request.id),
    ],
  };
}

/** The DM when a grant was not confirmed in time and went to the next in line. */
export function queueLapsedDm(
  tr: Translator,
  request: QueueRequest,
  released: readonly Claim[],
  at: DmClock,
  slashCommand: string,
): Reply {
  return textReply(
    tr.t("queue.lapsed", {
      what: slotsListIn(tr, groupClaims(released)),
      at: whenIn(tr, request.confirmByMs ?? at.nowMs, at.nowMs),
      example: commandExample(slashCommand, `claim ${wantCommand(request.want)} --wait`),
    }),
  );
}

/** The *Wait for it* button for a conflict answer to a claim request. */
export function waitButton(tr: Translator, value: QueueWaitValue): ReturnType<typeof button> {
  return button({
    actionId: ACTION_IDS.queueWait,
    text: tr.t("claim.button.wait"),
    value: queueWaitValue(value),
  });
}

/** The answer to joining the waiting list (`--wait` or *Wait for it*). */
export function joinQueueReply(tr: Translator, result: JoinQueueResult, slashCommand: string): Reply {
  switch (result.kind) {
    case "queued":
    case "already-waiting":
      return textReply(
        tr.t(result.kind === "queued" ? "queue.joined" : "queue.already", {
          what: wantWords(tr, result.request.want),
          duration: tr.duration(result.request.durationMs),
          note: noteIn(tr, result.request.note),
          position: tr.t("queue.position", { position: result.position }),
          example: commandExample(slashCommand, "queue cancel"), // words-ok: command syntax
        }),
      );
    case "granted":
      return textReply(tr.t("queue.granted", { what: slotsListIn(tr, groupClaims(result.claims)) }));
    case "too-long": {
      const problem = { kind: "too-long" as const, maxMs: result.maxMs, durationMs: result.durationMs };
      return commandErrorReply(tr, claimProblemIn(tr, problem), "claim", slashCommand);
    }
    default:
      return result satisfies never;
  }
}

/** The answer to `/gpu claim … --wait`. */
export function claimOrWaitReply(
  tr: Translator,
  result: ClaimOrWaitResult,
  nowMs: number,
  slashCommand: string,
): Reply {
  if (result.kind === "claim") return claimReply(tr, result.result, nowMs, slashCommand);
  const reply = joinQueueReply(tr, result.result, slashCommand);
  if (result.quota === undefined) return reply;
  const { quota } = result;
  const reason = tr.t("money.overQuota.waiting", {
    project: quota.project,
    max: quota.maxGpus,
    held: quota.heldGpus,
    asked: quota.askedGpus,
  });
  return {
    ...reply,
    text: `${reason}\n${reply.text}`,
    ...(reply.blocks === undefined ? {} : { blocks: [section(reason), ...reply.blocks] }),
  };
}

/** Waiting requests listed by `/gpu queue`; the rest are counted. */
const QUEUE_SHOWN = 40;

/** Characters of one list section, under Slack's 3,000 with room for the zero-width boundaries. */
const QUEUE_SECTION_CHARS = 2_900;

/** `/gpu queue`: the line with positions (the asker's marked), then grants awaiting *Confirm*. */
export function queueListReply(
  tr: Translator,
  view: QueueView,
  asker: string,
  at: DmClock,
  slashCommand: string,
): Reply {
  if (view.waiting.length === 0 && view.awaitingConfirm.length === 0) {
    return textReply(
      tr.t("queue.list.empty", { example: commandExample(slashCommand, "claim 2 a100 for 8h --wait") }),
    );
  }
  const all = view.waiting.map(({ request, position }) =>
    tr.t("queue.list.line", {
      position,
      who: mention(request.user),
      what: wantWords(tr, request.want),
      duration: tr.duration(request.durationMs),
      note: noteIn(tr, request.note),
      since: whenIn(tr, request.createdAtMs, at.nowMs),
      mine: request.user === asker ? tr.t("queue.list.you") : "",
    }),
  );
  const mineAt = view.waiting.findIndex(({ request }) => request.user === asker);
  const shown = visibleLines(all, mineAt, { budget: QUEUE_SECTION_CHARS, maxLines: QUEUE_SHOWN }, (count) =>
    tr.t("queue.list.more", { count }),
  );
  const waiting = [
    view.waiting.length === 0
      ? tr.t("queue.list.nobody")
      : `*${tr.t("queue.list.waiting", { count: view.waiting.length })}*`,
    ...shown,
  ].join("\n");
  const granted = view.awaitingConfirm.map((request) =>
    tr.t("queue.list.granted", {
      who: mention(request.user),
      what: wantWords(tr, request.want),
      at: whenIn(tr, request.confirmByMs ?? at.nowMs, at.nowMs),
    }),
  );
  const blocks: types.KnownBlock[] = [section(waiting)];
  if (granted.length > 0) {
    const lines = visibleLines(granted, -1, { budget: QUEUE_SECTION_CHARS, maxLines: QUEUE_SHOWN }, (count) =>
      tr.t("queue.list.more", { count }),
    );
    blocks.push(section([`*${tr.t("queue.list.awaiting")}*`, ...lines].join("\n")));
  }
  if (mineAt !== -1)
    blocks.push(
      // words-ok: command syntax
      context(tr.t("queue.list.cancelHint", { example: commandExample(slashCommand, "queue cancel") })),
    );
  return { text: waiting, blocks };
}

/** `/gpu queue cancel`. */
export function queueCancelReply(tr: Translator, cancelled: readonly QueueRequest[]): Reply {
  if (cancelled.length === 0) return textReply(tr.t("queue.cancel.none"));
  return textReply(
    tr.t("queue.cancel.done", {
      what: listIn(
        tr,
        cancelled.map((request) => wantWords(tr, request.want)),
        "and",
      ),
    }),
  );
}

/** *Confirm* on a grant DM. */
export function confirmGrantReply(tr: Translator, result: ConfirmGrantResult, at: DmClock): Reply {
  switch (result.kind) {
    case "confirmed": {
      const groups = groupClaims(result.claims);
      const what = slotsListIn(tr, groups);
      const until = whenIn(tr, result.claims[0]?.untilMs ?? at.nowMs, at.nowMs);
      const cuda = groups.flatMap((group) => {
        const line = cudaVisibleDevices(group);
        return line === null ? [] : [`${group.host}: \`${line}\``];
      });
      const shown = tr.t("queue.confirmed", { what, until: `*${until}*` });
      return {
        text: tr.t("queue.confirmed", { what, until }),
        blocks: [
          section(`✅ ${shown}${cuda.length > 0 ? `\n${cuda.join("\n")}` : ""}`),
          grantButtons(tr, result.claims),
        ],
      };
    }
    case "not-yours":
      return textReply(tr.t("queue.notYours"));
    case "gone":
      return textReply(
        tr.t(result.request?.state === "confirmed" ? "queue.alreadyConfirmed" : "queue.grantEnded"),
      );
    default:
      return result satisfies never;
  }
}
