import type { ClaimGroup } from "../checks/claim-groups.ts";
import { slotsText } from "../checks/claim-target.ts";
import type { Config } from "../config/schema.ts";
import { listWords, localWhen, mention, slackEscape } from "./action-text.ts";

/** ` (llama sft)`, or nothing without a note. */
export function noteWords(note: string): string {
  return note === "" ? "" : ` (${slackEscape(note)})`;
}

/** `gpu-a:0,1 until 14:00 (llama sft)`. */
export function heldWords(group: ClaimGroup, nowMs: number, zone: string): string {
  return `${slotsText(group)} until ${localWhen(group.untilMs, nowMs, zone)}${noteWords(group.note)}`;
}

/**
 * Who holds what: `gpu-a:0 is claimed by <@U1> until 18:00 (llama sft); gpu-a:1 by <@U2> until 12:00.`
 */
export function holdersText(groups: readonly ClaimGroup[], nowMs: number, zone: string): string {
  const parts = groups.map(
    (group, i) =>
      `${slotsText(group)} ${i === 0 ? "is claimed by" : "by"} ${mention(group.user)} until ` +
      `${localWhen(group.untilMs, nowMs, zone)}${noteWords(group.note)}`,
  );
  return `${parts.join("; ")}.`;
}

/** Who may release someone else's claim: `the cost warden (<@C>) or an admin (<@D>)`. */
export function forcersWords(warden: string | null, config: Pick<Config, "slack">): string {
  const parts: string[] = [];
  if (warden !== null) parts.push(`the cost warden (${mention(warden)})`);
  const admins = config.slack.admins;
  if (admins.length > 0) parts.push(`an admin (${admins.map(mention).join(", ")})`);
  return parts.length === 0 ? "nobody else (no cost warden or admin is configured)" : listWords(parts, "or");
}

/** `the cost warden` / `an admin` for a force release's notice. */
export function forcerRole(actor: string, warden: string | null, config: Pick<Config, "slack">): string {
  if (actor === warden) return "the cost warden";
  return config.slack.admins.includes(actor) ? "an admin" : "someone";
}
