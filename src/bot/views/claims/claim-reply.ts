import { slotsText } from "../../../checks/claim-target.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { ClaimGpusResult, ClaimTarget } from "../../../usecases/claims/claim-gpus.ts";
import type { StillUsingResult } from "../../../usecases/claims/claim-still-using.ts";
import type { WaitResult } from "../../../usecases/claims/claim-waitlist.ts";
import type { ExtendResult } from "../../../usecases/claims/extend-claims.ts";
import type { ReleaseResult } from "../../../usecases/claims/release-claims.ts";
import type { HomeClaim } from "../../../usecases/fleet/read-home.ts";
import { mention, slackEscape } from "../../../usecases/power/action-text.ts";
import { ACTION_IDS, claimIdsValue, queueWaitValue, slotsValue } from "../../ids.ts";
import { commandErrorReply } from "../command-error.ts";
import { overQuotaIn } from "../ledger/project-words.ts";
import { claimRefusedWords, reservedExtendWords, withCutWords } from "../queue/reservation-lines.ts";
import { actions, button, context, LIMITS, type Reply, section, textReply } from "../reply-message.ts";
import { claimButtons } from "./claim-dm.ts";
import { commandExample, holdersIn, listIn, noteIn, slotsListIn, whenIn } from "./claim-phrases.ts";
import { claimProblemIn } from "./claim-problem-words.ts";

/** What was asked for, so that a conflict answer can offer *Wait for it* with the same request. */
export interface AskedClaim {
  target: ClaimTarget;
  durationMs: number | null;
  note: string;
}

/** *Wait for it*: joins the waiting list with the request that met the conflict. */
function waitButton(tr: Translator, asked: AskedClaim): ReturnType<typeof button> {
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
    text: tr.t("claim.button.wait"),
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
export function claimReply(
  tr: Translator,
  result: ClaimGpusResult,
  nowMs: number,
  slashCommand: string,
  asked?: AskedClaim,
): Reply {
  switch (result.kind) {
    case "claimed":
      return textReply(withCutWords(tr, claimedIn(tr, result, nowMs), result.cut));
    case "reserved":
      return textReply(claimRefusedWords(tr, result.window));
    case "already-yours": {
      const what = slotsText(result.slots);
      return textReply(
        tr.t(result.allOf ? "claim.alreadyYours.allOf" : "claim.alreadyYours", {
          what,
          until: whenIn(tr, result.untilMs, nowMs),
          example: commandExample(slashCommand, `extend ${what} 4h`),
        }),
      );
    }
    case "short": {
      const text = shortIn(tr, result, nowMs);
      return asked === undefined
        ? textReply(text)
        : { text: textReply(text).text, blocks: [section(text), actions([waitButton(tr, asked)])] };
    }
    case "invalid":
      return commandErrorReply(tr, claimProblemIn(tr, result.problem), "claim", slashCommand);
    case "held":
      return heldReply(tr, result, nowMs, asked);
    case "over-quota":
      return textReply(overQuotaIn(tr, result.quota));
    default:
      return result satisfies never;
  }
}

/** `You hold gpu-a:0,1 until 14:00 (4 h) (llama sft).`, what it replaced and a busy warning. */
function claimedIn(
  tr: Translator,
  result: Extract<ClaimGpusResult, { kind: "claimed" }>,
  nowMs: number,
): string {
  const first = result.groups[0]!;
  const parts = [
    tr.t("claim.claimed", {
      what: slotsListIn(tr, result.groups),
      models:
        result.models.length === 0 ? "" : tr.t("claim.claimed.models", { models: result.models.join(", ") }),
      until: whenIn(tr, first.untilMs, nowMs),
      duration: tr.duration(result.durationMs),
      note: noteIn(tr, first.note),
    }),
  ];
  if (result.alsoHeld !== null)
    parts.push(tr.t("claim.claimed.alsoHeld", { what: slotsText(result.alsoHeld) }));
  if (result.replaced.length > 0) {
    parts.push(tr.t("claim.claimed.replaces", { what: slotsListIn(tr, result.replaced) }));
  }
  if (result.busy !== null) {
    const { users } = result.busy;
    parts.push(
      tr.t("claim.claimed.busy", {
        what: slotsListIn(tr, result.busy.slots),
        count: result.busy.count,
        users:
          users.length === 0
            ? ""
            : tr.t("claim.claimed.busyUsers", { users: users.map(slackEscape).join(", ") }),
      }),
    );
  }
  return parts.join("");
}

/** Holders listed in a "too few free" answer; the rest are counted. */
const SHORT_HOLDERS_SHOWN = 6;

/** `Only 1 of the 8 A100 GPUs is free; you asked for 2. Held: …`. */
function shortIn(tr: Translator, result: Extract<ClaimGpusResult, { kind: "short" }>, nowMs: number): string {
  const { holders } = result;
  const text = tr.t("claim.short", {
    free: result.free,
    total: result.total,
    count: result.count,
    models: result.models.length === 0 ? "" : ` ${listIn(tr, result.models, "or")}`,
  });
  if (holders.length === 0) return text;
  const shown = holders.slice(0, SHORT_HOLDERS_SHOWN).map((group) =>
    tr.t("claim.short.holder", {
      what: slotsText(group),
      who: mention(group.user),
      until: whenIn(tr, group.untilMs, nowMs),
    }),
  );
  const more =
    holders.length > SHORT_HOLDERS_SHOWN
      ? tr.t("claim.short.more", { count: holders.length - SHORT_HOLDERS_SHOWN })
      : "";
  return `${text}${tr.t("claim.short.held", { holders: `${shown.join(tr.t("claim.holders.separator"))}${more}` })}`;
}

/** Who holds it, with *Wait for it*, *Notify me when free* and, for the cost warden or an admin, *Release it*. */
function heldReply(
  tr: Translator,
  result: Extract<ClaimGpusResult, { kind: "held" }>,
  nowMs: number,
  asked: AskedClaim | undefined,
): Reply {
  const text = holdersIn(tr, result.holders, nowMs);
  const elements = [
    ...(asked === undefined ? [] : [waitButton(tr, asked)]),
    button({
      actionId: ACTION_IDS.claimNotify,
      text: tr.t("claim.button.notify"),
      value: slotsValue(result.slots.host, result.slots.gpus),
      ...(asked === undefined ? { style: "primary" as const } : {}),
    }),
  ];
  if (result.forceable) {
    const ids = result.holders.flatMap((group) => group.claimIds);
    elements.push(
      button({
        actionId: ACTION_IDS.claimForceRelease,
        text: tr.t("claim.button.force"),
        value: claimIdsValue(ids),
        style: "danger",
        confirm: {
          title: tr.t("claim.force.title"),
          text: tr.t("claim.force.text", { holders: text }),
          confirm: tr.t("claim.force.confirm"),
          deny: tr.t("claim.force.deny"),
        },
      }),
    );
  }
  return { text: textReply(text).text, blocks: [section(text), actions(elements)] };
}

/** The answer to `/gpu release` and the Release buttons. */
export function releaseReply(
  tr: Translator,
  result: ReleaseResult,
  nowMs: number,
  slashCommand: string,
): Reply {
  switch (result.kind) {
    case "released": {
      const parts: string[] = [];
      if (result.groups.length > 0)
        parts.push(tr.t("release.released", { what: slotsListIn(tr, result.groups) }));
      for (const group of result.forced) {
        parts.push(tr.t("release.forced", { what: slotsText(group), who: mention(group.user) }));
      }
      return textReply(parts.join(" "));
    }
    case "none":
      if (result.why === "nobody-holds")
        return textReply(tr.t("release.none.slots", { what: slotsText(result.slots) }));
      return textReply(tr.t(result.why === "ended" ? "claim.alreadyEnded" : "release.none.mine"));
    case "refused": {
      const names = [...new Set(result.holders.map((group) => mention(group.user)))];
      return textReply(
        tr.t("release.refused", {
          holders: holdersIn(tr, result.holders, nowMs),
          names: listIn(tr, names, "or"),
          forcers: forcersIn(tr, result.warden, result.admins),
        }),
      );
    }
    case "invalid":
      return commandErrorReply(tr, claimProblemIn(tr, result.problem), "release", slashCommand);
    default:
      return result satisfies never;
  }
}

/** Who may release someone else's claim: `the cost warden (<@C>) or an admin (<@D>)`. */
function forcersIn(tr: Translator, warden: string | null, admins: readonly string[]): string {
  const parts: string[] = [];
  if (warden !== null) parts.push(tr.t("release.forcers.warden", { who: mention(warden) }));
  if (admins.length > 0) parts.push(tr.t("release.forcers.admins", { who: admins.map(mention).join(", ") }));
  return parts.length === 0 ? tr.t("release.forcers.nobody") : listIn(tr, parts, "or");
}

/** The answer to `/gpu extend` and *Extend 4 h*. */
export function extendReply(
  tr: Translator,
  result: ExtendResult,
  nowMs: number,
  slashCommand: string,
): Reply {
  switch (result.kind) {
    case "extended": {
      const parts = result.groups.map((group) =>
        tr.t("extend.part", { what: slotsText(group), until: whenIn(tr, group.untilMs, nowMs) }),
      );
      const cap = result.capped ? tr.t("extend.capped", { max: tr.duration(result.maxMs) }) : "";
      const text = tr.t("extend.extended", { parts: parts.join(tr.t("claim.holders.separator")), cap });
      return textReply(reservedExtendWords(tr, text, result.reserved ?? []));
    }
    case "none": {
      if (result.slots === null) return textReply(tr.t("claim.alreadyEnded"));
      const what = slotsText(result.slots);
      return textReply(
        // words-ok: command syntax
        tr.t("extend.none", { what, example: commandExample(slashCommand, `claim ${what} for 4h`) }),
      );
    }
    case "refused":
      return textReply(tr.t("extend.refused", { holders: holdersIn(tr, result.holders, nowMs) }));
    case "invalid":
      return commandErrorReply(tr, claimProblemIn(tr, result.problem), "extend", slashCommand);
    default:
      return result satisfies never;
  }
}

/** Claims listed with buttons in one ephemeral message (2 blocks each, within the 50 blocks). */
const MINE_SHOWN = 20;

/** `/gpu mine`: each claim with its end, note and GPUs' utilisation now, and *Extend 4 h* / *Release*. */
export function mineReply(
  tr: Translator,
  claims: readonly HomeClaim[],
  nowMs: number,
  slashCommand: string,
): Reply {
  if (claims.length === 0) {
    return textReply(
      tr.t("claim.mine.none", { example: commandExample(slashCommand, "claim gpu-a:0 for 4h") }),
    );
  }
  const blocks: NonNullable<Reply["blocks"]> = [section(`*${tr.t("claim.mine.title")}* (${claims.length})`)];
  for (const claim of claims.slice(0, MINE_SHOWN)) {
    blocks.push(section(claimLineIn(tr, claim, nowMs)));
    blocks.push(claimButtons(tr, claim.group));
  }
  if (claims.length > MINE_SHOWN) {
    blocks.push(
      context(
        tr.t("claim.mine.more", {
          count: claims.length - MINE_SHOWN,
          example: commandExample(slashCommand, "release all"), // words-ok: command syntax
        }),
      ),
    );
  }
  const lines = claims.map(({ group }) =>
    tr.t("claim.mine.fallbackItem", { what: slotsText(group), until: whenIn(tr, group.untilMs, nowMs) }),
  );
  return {
    text: textReply(
      tr.t("claim.mine.fallback", { list: lines.join(tr.t("claim.list.separator")) }),
    ).text.slice(0, LIMITS.messageTextChars),
    blocks,
  };
}

/** `*gpu-a:0,1* (llama sft) until *18:00* (4 h left) · now `0 97` %` (for `/gpu mine` and the Home tab). */
export function claimLineIn(tr: Translator, { group, gpus }: HomeClaim, nowMs: number): string {
  return tr.t("claim.mine.line", {
    what: `*${slotsText(group)}*`,
    note: noteIn(tr, group.note),
    until: `*${whenIn(tr, group.untilMs, nowMs)}*`,
    left: tr.duration(group.untilMs - nowMs),
    util:
      gpus.length === 0 ? "" : tr.t("claim.mine.util", { utils: utilList(gpus.map((gpu) => gpu.utilPct)) }),
  });
}

/** `` `0 0 97 –` ``: each GPU's utilisation now, `–` where there is no reading. */
export function utilList(utilPcts: ReadonlyArray<number | null>): string {
  return `\`${utilPcts.map((pct) => (pct === null ? "–" : String(Math.round(pct)))).join(" ")}\``;
}

/** *Notify me when free*: on the waitlist, or free already. */
export function waitlistReply(tr: Translator, result: WaitResult, slashCommand: string): Reply {
  const what = slotsText(result.slots);
  return textReply(
    result.kind === "free"
      ? tr.t("claim.wait.free", { what, example: commandExample(slashCommand, `claim ${what}`) })
      : tr.t("claim.wait.waiting", { what }),
  );
}

/** *Still using it* on a claimed-but-idle nudge. */
export function stillUsingReply(tr: Translator, result: StillUsingResult, nowMs: number): Reply {
  switch (result.kind) {
    case "noted":
      return textReply(
        tr.t("claim.stillUsing.noted", {
          what: slotsListIn(tr, result.groups),
          nudge: tr.duration(result.nudgeMs),
        }),
      );
    case "none":
      return textReply(tr.t("claim.alreadyEnded"));
    case "refused":
      return textReply(tr.t("claim.stillUsing.refused", { holders: holdersIn(tr, result.holders, nowMs) }));
    default:
      return result satisfies never;
  }
}
