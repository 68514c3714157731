import type { ClaimGroup } from "../../checks/claim-groups.ts";
import { slotsText } from "../../checks/claim-target.ts";
import { formatDuration } from "../../shared/duration.ts";
import { localWhen, mention } from "../../usecases/action-text.ts";
import { noteWords } from "../../usecases/claim-text.ts";
import type { ClaimEnding, DmClock } from "../../usecases/claim-words.ts";
import { ACTION_IDS, claimIdsValue, slotsValue } from "../ids.ts";
import { actions, button, type Reply, section } from "./reply-message.ts";

export type { ClaimEnding, DmClock };

/** *Extend 4 h* and *Release* for the claim group. */
export function claimButtons(group: Pick<ClaimGroup, "claimIds">): ReturnType<typeof actions> {
  const value = claimIdsValue(group.claimIds);
  return actions([
    button({ actionId: ACTION_IDS.claimExtend4h, text: "Extend 4 h", value, style: "primary" }),
    button({ actionId: ACTION_IDS.claimRelease, text: "Release", value }),
  ]);
}

/** "Your claim on gpu-a:0,1 ends at 18:00 (in 1 h)" with *Extend 4 h* / *Release*. */
export function claimReminderDm(group: ClaimGroup, at: DmClock): Reply {
  const what = slotsText(group);
  const when = localWhen(group.untilMs, at.nowMs, at.zone);
  const text =
    `⏳ Your claim on *${what}*${noteWords(group.note)} ends at *${when}* ` +
    `(in ${formatDuration(group.untilMs - at.nowMs)}). Extend it, or release it if you are done.`;
  return {
    text: `Your claim on ${what} ends at ${when}`,
    blocks: [section(text), claimButtons(group)],
  };
}

/** "gpu-a:0,1 has been idle since 12:00 (2 h)" with *Still using it* / *Release*. */
export function claimNudgeDm(
  group: ClaimGroup,
  idleFromMs: number,
  releaseAtMs: number | null,
  at: DmClock,
): Reply {
  const what = slotsText(group);
  const since = localWhen(idleFromMs, at.nowMs, at.zone);
  const release =
    releaseAtMs === null
      ? ""
      : ` If it stays idle it is released at ${localWhen(releaseAtMs, at.nowMs, at.zone)}.`;
  const text =
    `💤 You hold *${what}*${noteWords(group.note)}, but it has been idle since *${since}* ` +
    `(${formatDuration(at.nowMs - idleFromMs)}). Still using it?${release}`;
  const value = claimIdsValue(group.claimIds);
  return {
    text: `${what} is claimed by you but idle since ${since}`,
    blocks: [
      section(text),
      actions([
        button({ actionId: ACTION_IDS.claimStillUsing, text: "Still using it", value, style: "primary" }),
        button({ actionId: ACTION_IDS.claimRelease, text: "Release", value }),
      ]),
    ],
  };
}

/** The notice to the holder when a claim ends without them: expiry, idle release, force release. */
export function claimEndedDm(group: ClaimGroup, ending: ClaimEnding, endedAtMs: number, at: DmClock): Reply {
  const what = slotsText(group);
  const note = noteWords(group.note);
  const when = localWhen(endedAtMs, at.nowMs, at.zone);
  let text: string;
  switch (ending.kind) {
    case "expired":
      text = `⌛ Your claim on *${what}*${note} ended at ${when}.`;
      break;
    case "idle":
      text =
        `🔓 Released your claim on *${what}*${note}: idle since ` +
        `${localWhen(ending.idleFromMs, at.nowMs, at.zone)} (${formatDuration(endedAtMs - ending.idleFromMs)}).`;
      break;
    case "forced":
      text =
        `🔓 ${mention(ending.actor)} (${ending.role}) released your claim on *${what}*${note}, ` +
        `which ran until ${localWhen(group.untilMs, at.nowMs, at.zone)}.`;
      break;
    default:
      return ending satisfies never;
  }
  return { text: text.replaceAll("*", ""), blocks: [section(text)] };
}

/** "gpu-a:0 is free now" to someone on its waitlist, with a button that claims it. */
export function claimFreeDm(host: string, gpus: readonly number[] | null, slashCommand: string): Reply {
  const what = slotsText({ host, gpus });
  const text = `🟢 *${what}* is free now. Claim it here, or with \`${slashCommand} claim ${what} for 4h\`.`;
  return {
    text: `${what} is free now`,
    blocks: [
      section(text),
      actions([
        button({
          actionId: ACTION_IDS.claimSlots,
          text: `Claim ${what}`,
          value: slotsValue(host, gpus),
          style: "primary",
        }),
      ]),
    ],
  };
}
