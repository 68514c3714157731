import type { ClaimGroup } from "../../../checks/claim-groups.ts";
import { slotsText } from "../../../checks/claim-target.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { ClaimEnding, DmClock } from "../../../usecases/claims/claim-words.ts";
import { mention } from "../../../usecases/power/action-text.ts";
import { ACTION_IDS, claimIdsValue, slotsValue } from "../../ids.ts";
import { actions, button, type Reply, section } from "../reply-message.ts";
import { commandExample, noteIn, whenIn } from "./claim-phrases.ts";

export type { ClaimEnding, DmClock };

/** *Extend 4 h* and *Release* for the claim group. */
export function claimButtons(
  tr: Translator,
  group: Pick<ClaimGroup, "claimIds">,
): ReturnType<typeof actions> {
  const value = claimIdsValue(group.claimIds);
  return actions([
    button({
      actionId: ACTION_IDS.claimExtend4h,
      text: tr.t("claim.button.extend4h"),
      value,
      style: "primary",
    }),
    button({ actionId: ACTION_IDS.claimRelease, text: tr.t("claim.button.release"), value }),
  ]);
}

/** "Your claim on gpu-a:0,1 ends at 18:00 (in 1 h)" with *Extend 4 h* / *Release*. */
export function claimReminderDm(tr: Translator, group: ClaimGroup, at: DmClock): Reply {
  const what = slotsText(group);
  const until = whenIn(tr, group.untilMs, at.nowMs);
  const text = tr.t("claim.reminder", {
    what: `*${what}*`,
    note: noteIn(tr, group.note),
    until: `*${until}*`,
    left: tr.duration(group.untilMs - at.nowMs),
  });
  return {
    text: tr.t("claim.reminder.fallback", { what, until }),
    blocks: [section(text), claimButtons(tr, group)],
  };
}

/** "gpu-a:0,1 has been idle since 12:00 (2 h)" with *Still using it* / *Release*. */
export function claimNudgeDm(
  tr: Translator,
  group: ClaimGroup,
  idleFromMs: number,
  releaseAtMs: number | null,
  at: DmClock,
): Reply {
  const what = slotsText(group);
  const since = whenIn(tr, idleFromMs, at.nowMs);
  const release =
    releaseAtMs === null ? "" : tr.t("claim.nudge.release", { at: whenIn(tr, releaseAtMs, at.nowMs) });
  const text = tr.t("claim.nudge", {
    what: `*${what}*`,
    note: noteIn(tr, group.note),
    since: `*${since}*`,
    idleFor: tr.duration(at.nowMs - idleFromMs),
    release,
  });
  const value = claimIdsValue(group.claimIds);
  return {
    text: tr.t("claim.nudge.fallback", { what, since }),
    blocks: [
      section(text),
      actions([
        button({
          actionId: ACTION_IDS.claimStillUsing,
          text: tr.t("claim.button.stillUsing"),
          value,
          style: "primary",
        }),
        button({ actionId: ACTION_IDS.claimRelease, text: tr.t("claim.button.release"), value }),
      ]),
    ],
  };
}

/** The notice to the holder when a claim ends without them: expiry, idle release, force release. */
export function claimEndedDm(
  tr: Translator,
  group: ClaimGroup,
  ending: ClaimEnding,
  endedAtMs: number,
  at: DmClock,
): Reply {
  const what = `*${slotsText(group)}*`;
  const note = noteIn(tr, group.note);
  let text: string;
  switch (ending.kind) {
    case "expired":
      text = tr.t("claim.ended.expired", { what, note, at: whenIn(tr, endedAtMs, at.nowMs) });
      break;
    case "idle":
      text = tr.t("claim.ended.idle", {
        what,
        note,
        since: whenIn(tr, ending.idleFromMs, at.nowMs),
        idleFor: tr.duration(endedAtMs - ending.idleFromMs),
      });
      break;
    case "forced":
      text = tr.t("claim.ended.forced", {
        who: mention(ending.actor),
        role: tr.t(`claim.role.${ending.role}`),
        what,
        note,
        until: whenIn(tr, group.untilMs, at.nowMs),
      });
      break;
    default:
      return ending satisfies never;
  }
  return { text: text.replaceAll("*", ""), blocks: [section(text)] };
}

/** "gpu-a:0 is free now" to someone on its waitlist, with a button that claims it. */
export function claimFreeDm(
  tr: Translator,
  host: string,
  gpus: readonly number[] | null,
  slashCommand: string,
): Reply {
  const what = slotsText({ host, gpus });
  const text = tr.t("claim.free", {
    what: `*${what}*`,
    example: commandExample(slashCommand, `claim ${what} for 4h`), // words-ok: command syntax
  });
  return {
    text: tr.t("claim.free.fallback", { what }),
    blocks: [
      section(text),
      actions([
        button({
          actionId: ACTION_IDS.claimSlots,
          text: tr.t("claim.free.button", { what }),
          value: slotsValue(host, gpus),
          style: "primary",
        }),
      ]),
    ],
  };
}

/** The line in a host's alert thread when its GPUs are claimed (in the channel's language). */
export function claimedInThreadText(tr: Translator, group: ClaimGroup, nowMs: number): string {
  return tr.t("claim.thread.claimed", {
    what: slotsText(group),
    who: mention(group.user),
    until: whenIn(tr, group.untilMs, nowMs),
    note: noteIn(tr, group.note),
  });
}
