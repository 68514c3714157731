import type { ClaimGroup } from "../../../checks/claim-groups.ts";
import { formatGpuList, type GpuSlots, slotsText } from "../../../checks/claim-target.ts";
import type { Translator } from "../../../messages/translator.ts";
import { localDayNumber } from "../../../shared/time.ts";
import { mention, slackEscape } from "../../../usecases/power/action-text.ts";

/** An instant relative to now, in the reader's words: `14:02`, `tomorrow 09:00`, `Thu, Jan 7 09:00`. */
export function whenIn(tr: Translator, ms: number, nowMs: number): string {
  const offset = localDayNumber(ms, tr.timeZone) - localDayNumber(nowMs, tr.timeZone);
  if (offset === 0) return tr.t("claim.when.today", { at: ms });
  if (offset === 1) return tr.t("claim.when.tomorrow", { at: ms });
  if (offset === -1) return tr.t("claim.when.yesterday", { at: ms });
  return tr.t("claim.when.other", { at: ms });
}

/** `a`, `a and b`, `a, b and c` (or `or`), in the reader's language. */
export function listIn(tr: Translator, items: readonly string[], last: "and" | "or"): string {
  if (items.length <= 1) return items[0] ?? "";
  const head = items.slice(0, -1).join(tr.t("claim.list.separator"));
  const id = last === "and" ? "claim.list.and" : "claim.list.or";
  return tr.t(id, { head, last: items.at(-1)! });
}

/** ` (llama sft)`, or nothing without a note. */
export function noteIn(tr: Translator, note: string): string {
  return note === "" ? "" : tr.t("claim.note", { note: slackEscape(note) });
}

/** `GPU 3`, `GPUs 0-3`. */
export function gpuListIn(tr: Translator, indexes: readonly number[]): string {
  return tr.t("claim.gpuList", { count: indexes.length, list: formatGpuList(indexes) });
}

/** `gpu-a:0 and gpu-b`: the groups' slots. */
export function slotsListIn(tr: Translator, groups: readonly GpuSlots[]): string {
  return listIn(
    tr,
    groups.map((group) => slotsText(group)),
    "and",
  );
}

/**
 * Who holds what: `gpu-a:0 is claimed by <@U1> until 18:00 (llama sft); gpu-a:1 by <@U2> until 12:00.`
 */
export function holdersIn(tr: Translator, groups: readonly ClaimGroup[], nowMs: number): string {
  const parts = groups.map((group, i) =>
    tr.t(i === 0 ? "claim.holders.first" : "claim.holders.next", {
      what: slotsText(group),
      who: mention(group.user),
      until: whenIn(tr, group.untilMs, nowMs),
      note: noteIn(tr, group.note),
    }),
  );
  return tr.t("claim.holders", { holders: parts.join(tr.t("claim.holders.separator")) });
}

/** `` `/gpu claim gpu-a:0 for 4h` ``: a command to type, as Slack code. */
export function commandExample(slashCommand: string, rest: string): string {
  return `\`${slashCommand} ${rest}\``;
}
