import type { types } from "@slack/bolt";
import type { HostProjectUse } from "../../../checks/host-projects.ts";
import type { RenewalFlag } from "../../../checks/renewal.ts";
import type { ReclaimCase } from "../../../domain/reclaim-case.ts";
import type { Translator } from "../../../messages/translator.ts";
import { formatPct } from "../../../reports/summary-format.ts";
import type { DecisionResult } from "../../../usecases/warden/decide-reclaim.ts";
import type { ReclaimMessageContext } from "../../../usecases/warden/reclaim-words.ts";
import { RECLAIM_ACTION_IDS, reclaimValue } from "../../ids.ts";
import { escapeMrkdwn, mention } from "../alerts/alert-format.ts";
import { stopResultWords } from "../power/stop-words.ts";
import { actions, button, context, type Reply, section } from "../reply-message.ts";

export type { ReclaimMessageContext };

const date = (tr: Translator, ms: number) => tr.t("summary.day", { at: ms });

function noWarden(tr: Translator, context_: ReclaimMessageContext): types.KnownBlock[] {
  const usedBy = context_.usedBy === undefined ? [] : [context(usedByWords(tr, context_.usedBy))];
  return [...usedBy, ...(context_.warden === null ? [context(tr.t("reclaim.noWarden"))] : [])];
}

/** `Used by project nlp (48.0 GPU-hours), unattributed (2.0)` over the last 30 days, or that nobody claimed it. */
export function usedByWords(tr: Translator, usedBy: readonly HostProjectUse[]): string {
  if (usedBy.length === 0) return tr.t("money.usedBy.nobody");
  const list = usedBy
    .map((use) =>
      tr.t("money.usedBy.entry", {
        project: use.project === null ? tr.t("money.unattributed") : escapeMrkdwn(use.project),
        hours: use.gpuHours.toFixed(1),
      }),
    )
    .join(tr.t("money.usedBy.separator"));
  return tr.t("money.usedBy", { list });
}

/** To the warden: a host became pending reclaim. */
export function reclaimPendingMessage(tr: Translator, entry: ReclaimCase, ctx: ReclaimMessageContext): Reply {
  const below = formatPct(ctx.belowPct);
  const text = tr.t("reclaim.pending.text", {
    host: escapeMrkdwn(entry.host),
    mean: formatPct(entry.windowMeanPct),
    below,
  });
  return {
    text,
    blocks: [
      section(
        `:mag: *${text}*\n${tr.t("reclaim.pending.detail", { until: date(tr, entry.observeUntilMs), below })}`,
      ),
      ...noWarden(tr, ctx),
    ],
  };
}

/** To the warden: use came back, the case is closed. */
export function reclaimClearedMessage(
  tr: Translator,
  entry: ReclaimCase,
  dayStartMs: number,
  dayMeanPct: number,
  ctx: ReclaimMessageContext,
): Reply {
  const text = tr.t("reclaim.cleared", {
    host: escapeMrkdwn(entry.host),
    mean: formatPct(dayMeanPct),
    day: date(tr, dayStartMs),
  });
  return { text, blocks: [section(`:white_check_mark: ${text}`), ...noWarden(tr, ctx)] };
}

/** To the warden: observation is over; decide with the buttons. */
export function reclaimDecisionMessage(
  tr: Translator,
  entry: ReclaimCase,
  ctx: ReclaimMessageContext,
): Reply {
  const host = escapeMrkdwn(entry.host);
  const text = tr.t("reclaim.decision.text", {
    host,
    below: formatPct(ctx.belowPct),
    days: observedDays(entry),
  });
  const value = reclaimValue(entry.id, entry.host);
  return {
    text,
    blocks: [
      section(
        `:scales: *${text}*\n${tr.t("reclaim.decision.detail", {
          since: date(tr, entry.startedAtMs),
          mean: formatPct(entry.windowMeanPct),
        })}`,
      ),
      actions([
        button({
          actionId: RECLAIM_ACTION_IDS.stop,
          text: tr.t("reclaim.button.stop", { host: entry.host }),
          value,
          style: "danger",
          confirm: {
            title: tr.t("reclaim.confirm.title", { host: entry.host }),
            text: tr.t("reclaim.confirm.text", { host }),
            confirm: tr.t("reclaim.confirm.yes"),
            deny: tr.t("reclaim.confirm.no"),
          },
        }),
        button({ actionId: RECLAIM_ACTION_IDS.lend, text: tr.t("reclaim.button.lend"), value }),
        button({ actionId: RECLAIM_ACTION_IDS.keep, text: tr.t("reclaim.button.keep"), value }),
      ]),
      ...noWarden(tr, ctx),
    ],
  };
}

/** The decision message once decided (replaces the buttons). */
export function reclaimDecidedMessage(tr: Translator, entry: ReclaimCase): Reply {
  const text = tr.t("reclaim.decided", { host: escapeMrkdwn(entry.host), what: decisionWords(tr, entry) });
  const at = entry.endedAtMs === null ? "" : ` (${tr.t("summary.when", { at: entry.endedAtMs })})`;
  return { text, blocks: [section(`:ballot_box_with_check: ${text}${at}`)] };
}

/** The channel note of a decision: `Reclaim decision on gpu-c: kept by @w: “…”.` */
export function reclaimDecisionPost(tr: Translator, entry: ReclaimCase): Reply {
  const message = reclaimDecidedMessage(tr, entry);
  return {
    text: tr.t("reclaim.decided.post", { host: escapeMrkdwn(entry.host), what: decisionWords(tr, entry) }),
    ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
  };
}

/** The DM to the person a host was lent to. */
export function reclaimLentDm(
  tr: Translator,
  facts: { actor: string; host: string; project: string | null },
): Reply {
  const args = { actor: mention(facts.actor), host: escapeMrkdwn(facts.host) };
  return {
    text:
      facts.project === null
        ? tr.t("reclaim.lentDm", args)
        : tr.t("reclaim.lentDmProject", { ...args, project: escapeMrkdwn(facts.project) }),
  };
}

/** `kept by @w: "training data prep next week"`, `lent to @bob (project llm-eval) by @w`, … */
export function decisionWords(tr: Translator, entry: ReclaimCase): string {
  const by = entry.decidedBy === null ? null : actor(entry.decidedBy);
  switch (entry.state) {
    case "pending":
      return tr.t("reclaim.state.pending", { until: date(tr, entry.observeUntilMs) });
    case "due":
      return tr.t("reclaim.state.due");
    case "cleared":
      return tr.t("reclaim.state.cleared");
    case "stopped": {
      const dry = entry.detail.dryRun === true;
      if (by === null) return tr.t(dry ? "reclaim.state.stoppedDry" : "reclaim.state.stopped");
      return tr.t(dry ? "reclaim.state.stoppedByDry" : "reclaim.state.stoppedBy", { actor: by });
    }
    case "lent": {
      const to = lentTo(
        tr,
        typeof entry.detail.owner === "string" ? entry.detail.owner : null,
        typeof entry.detail.project === "string" ? entry.detail.project : null,
      );
      return by === null
        ? tr.t("reclaim.state.lent", { to })
        : tr.t("reclaim.state.lentBy", { to, actor: by });
    }
    case "kept": {
      const reason = typeof entry.detail.reason === "string" ? escapeMrkdwn(entry.detail.reason) : null;
      if (reason === null)
        return by === null ? tr.t("reclaim.state.kept") : tr.t("reclaim.state.keptBy", { actor: by });
      return by === null
        ? tr.t("reclaim.state.keptReason", { reason })
        : tr.t("reclaim.state.keptByReason", { actor: by, reason });
    }
    default:
      return entry.state satisfies never;
  }
}

/** `@bob (project llm-eval)`, `@bob`, `project llm-eval`. */
export function lentTo(tr: Translator, owner: string | null, project: string | null): string {
  const who = owner === null ? null : mention(owner);
  const what = project === null ? null : escapeMrkdwn(project);
  if (who !== null && what !== null) return tr.t("reclaim.lentTo.both", { owner: who, project: what });
  if (who !== null) return who;
  if (what !== null) return tr.t("reclaim.lentTo.project", { project: what });
  return tr.t("reclaim.lentTo.someone");
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
      })}${flag.usedBy === undefined ? "" : ` ${usedByWords(tr, flag.usedBy)}`}`,
  );
  const text = tr.t("summary.renewal.text", { count: flags.length, pct: formatPct(belowPct) });
  const blocks: types.KnownBlock[] = [section(`:receipt: *${text}*\n${lines.slice(0, 30).join("\n")}`)];
  if (lines.length > 30) blocks.push(context(tr.t("summary.renewal.more", { count: lines.length - 30 })));
  if (warden === null) blocks.push(context(tr.t("summary.renewal.noWarden")));
  return { text, blocks };
}

/** A short status line for `/gpu status`: `pending reclaim since Mon, Feb 3, decision due Mon, Feb 17`. */
export function reclaimStatusWords(tr: Translator, entry: ReclaimCase): string {
  if (entry.state === "pending") {
    return tr.t("reclaim.status.pending", {
      since: date(tr, entry.startedAtMs),
      due: date(tr, entry.observeUntilMs),
    });
  }
  if (entry.state === "due") {
    return tr.t("reclaim.status.due", { since: date(tr, entry.dueAtMs ?? entry.observeUntilMs) });
  }
  const what = decisionWords(tr, entry);
  return entry.endedAtMs === null
    ? tr.t("reclaim.status.last", { what })
    : tr.t("reclaim.status.lastOn", { what, day: date(tr, entry.endedAtMs) });
}

function observedDays(entry: ReclaimCase): number {
  return Math.round((entry.observeUntilMs - entry.startedAtMs) / 86_400_000);
}

function actor(user: string): string {
  return /^[UW][A-Z0-9]{2,}$/.test(user) ? mention(user) : escapeMrkdwn(user);
}

/** Why a reclaim decision was not taken, for the person who tried. */
export function reclaimRefusalText(
  tr: Translator,
  result: Exclude<DecisionResult, { kind: "decided" }>,
): string {
  if (result.kind === "not-stopped")
    return tr.t("reclaim.notStopped", {
      host: escapeMrkdwn(result.host),
      why: stopResultWords(tr, result.stop),
    });
  const refusal = result.refusal;
  switch (refusal.reason) {
    case "gone":
      return tr.t("reclaim.refused.gone");
    case "already-decided":
      return refusal.entry === null
        ? tr.t("reclaim.refused.decidedGone")
        : tr.t("reclaim.refused.decided", { what: reclaimDecidedMessage(tr, refusal.entry).text });
    case "not-allowed":
      return refusal.warden === null
        ? tr.t("reclaim.refused.adminOnly", { host: escapeMrkdwn(refusal.host) })
        : tr.t("reclaim.refused.wardenOrAdmin", {
            host: escapeMrkdwn(refusal.host),
            warden: mention(refusal.warden),
          });
    case "still-observed":
      return tr.t("reclaim.refused.observing", { host: escapeMrkdwn(refusal.host) });
    case "lend-needs-someone":
      return tr.t("reclaim.refused.lendNobody");
    case "keep-needs-reason":
      return tr.t("reclaim.refused.keepNoReason");
    default:
      return refusal satisfies never;
  }
}
