import { groupClaims } from "../../../checks/claim-groups.ts";
import { slotsText } from "../../../checks/claim-target.ts";
import type { Claim } from "../../../domain/claim.ts";
import type { QueueRequest, QueueWant } from "../../../domain/queue-request.ts";
import type { Translator } from "../../../messages/translator.ts";
import { localDayNumber } from "../../../shared/time.ts";
import type { DmClock } from "../../../usecases/claims/claim-words.ts";
import { mention } from "../../../usecases/power/action-text.ts";
import type { DeferPreemptResult, PreemptAsk } from "../../../usecases/queue/queue-preempt.ts";
import { ACTION_IDS, claimIdsValue, preemptIdsValue } from "../../ids.ts";
import { actions, button, type Reply, section, textReply } from "../reply-message.ts";

/** `14:30`, or with the day when it is not today (team zone). */
function when(tr: Translator, ms: number, at: DmClock): string {
  return tr.date(ms, localDayNumber(ms, at.zone) === localDayNumber(at.nowMs, at.zone) ? "time" : "dayTime");
}

/** `gpu-a:0,1`, `2 GPUs`, `1 a100 GPU`, `2 GPUs with at least 40 GiB`. */
function wantText(tr: Translator, want: QueueWant): string {
  if (want.kind === "slots") return slotsText(want);
  const what =
    want.model === null
      ? tr.t("preempt.gpus", { count: want.count })
      : tr.t("preempt.modelGpus", { count: want.count, model: want.model });
  const floored =
    want.floorMiB === undefined
      ? what
      : tr.t("queue.want.floor", { what, gib: Math.round(want.floorMiB / 1024) });
  return want.valley === true ? tr.t("queue.want.valley", { what: floored }) : floored;
}

function projectText(tr: Translator, project: string | null): string {
  return project === null ? tr.t("project.none") : tr.t("priority.project", { name: project });
}

function claimsText(claims: readonly Claim[]): string {
  return groupClaims(claims).map(slotsText).join(", ");
}

/** The holder's DM: make room for a waiting request of higher priority, with *Release now* / *I need 30 more minutes*. */
export function preemptAskDm(tr: Translator, ask: PreemptAsk, at: DmClock): Reply {
  const { request } = ask;
  const what = claimsText(ask.claims);
  const releaseAt = when(tr, ask.releaseAtMs, at);
  const text = tr.t("preempt.ask", {
    who: mention(request.user),
    want: wantText(tr, request.want),
    project: projectText(tr, request.project),
    priority: request.priority,
    what,
    when: releaseAt,
  });
  return {
    text: tr.t("preempt.askText", { what, when: releaseAt }),
    blocks: [
      section(text),
      actions([
        button({
          actionId: ACTION_IDS.claimRelease,
          text: tr.t("preempt.releaseNow"),
          value: claimIdsValue(ask.claims.map((claim) => claim.id)),
          style: "primary",
        }),
        button({
          actionId: ACTION_IDS.preemptDefer,
          text: tr.t("preempt.moreTime"),
          value: preemptIdsValue(ask.preemptIds),
        }),
      ]),
    ],
  };
}

/** The waiter's DM: who was asked to make room, and by when. */
export function preemptWaitingDm(
  tr: Translator,
  request: QueueRequest,
  asks: readonly PreemptAsk[],
  at: DmClock,
): Reply {
  const holders = asks.map((ask) => mention(ask.holder)).join(", ");
  const by = when(tr, Math.max(...asks.map((ask) => ask.releaseAtMs)), at);
  const text = tr.t("preempt.waiting", {
    holders,
    want: wantText(tr, request.want),
    priority: request.priority,
    when: by,
  });
  return { text: tr.t("preempt.waitingText", { holders, when: by }), blocks: [section(text)] };
}

/** The holder's DM: the claim was released to make room. */
export function preemptReleasedDm(
  tr: Translator,
  request: QueueRequest,
  released: readonly Claim[],
  _at: DmClock,
): Reply {
  const what = claimsText(released);
  const text = tr.t("preempt.released", {
    what,
    who: mention(request.user),
    project: projectText(tr, request.project),
    priority: request.priority,
  });
  return { text: tr.t("preempt.releasedText", { what }), blocks: [section(text)] };
}

/** The holder's DM: the request that asked for room no longer needs it; the claim stays theirs. */
export function preemptVoidDm(tr: Translator, kept: readonly Claim[], _at: DmClock): Reply {
  return textReply(tr.t("preempt.void", { what: claimsText(kept) }));
}

/** The answer to *I need 30 more minutes*. */
export function deferPreemptReply(tr: Translator, result: DeferPreemptResult, at: DmClock): Reply {
  switch (result.kind) {
    case "deferred":
      return textReply(
        tr.t("preempt.deferred", { when: when(tr, result.releaseAtMs, at), what: claimsText(result.claims) }),
      );
    case "already":
      return textReply(tr.t("preempt.already", { when: when(tr, result.releaseAtMs, at) }));
    case "not-yours":
      return textReply(tr.t("preempt.notYours"));
    case "gone":
      return textReply(tr.t("preempt.gone"));
    default:
      return result satisfies never;
  }
}
