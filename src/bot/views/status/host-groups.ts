import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type { HostSummary } from "../../../usecases/fleet/read-fleet-status.ts";
import { clip, LIMITS, section } from "../reply-message.ts";
import { groupCount, groupTitle, STATUS_GROUPS, type StatusGroupId } from "./status-words.ts";

const LINE_MAX_CHARS = 400;
/** Sections fill up to this many characters before a new one starts. */
const SECTION_FILL_CHARS = LIMITS.sectionTextChars - 100;

/** Hosts of one status group that did not fit. */
export interface OmittedGroup {
  id: StatusGroupId;
  count: number;
}

/**
 * Appends to `blocks` the hosts grouped by what they need ({@link STATUS_GROUPS}: idle first, …, busy),
 * one line each, packed into sections, while `blocks` stays within `maxBlocks` and the lines' text
 * within `budgetChars`; returns the count per group of the hosts that did not fit. No hosts: a line
 * that says the first poll fills the board.
 */
export function pushHostGroups<Host>(
  tr: Translator,
  blocks: types.KnownBlock[],
  hosts: readonly Host[],
  options: {
    statusOf: (host: Host) => HostSummary["status"];
    lineOf: (host: Host) => string;
    maxBlocks: number;
    budgetChars: number;
  },
): OmittedGroup[] {
  if (hosts.length === 0) {
    blocks.push(section(tr.t("status.empty")));
    return [];
  }
  let usedChars = 0;
  let full = false;
  const omitted: OmittedGroup[] = [];
  for (const group of STATUS_GROUPS) {
    const members = hosts.filter((host) =>
      (group.statuses as readonly string[]).includes(options.statusOf(host)),
    );
    if (members.length === 0) continue;
    let text = `*${groupTitle(tr, group.id)}* (${members.length})`;
    let shown = 0;
    for (const host of members) {
      const line = clip(options.lineOf(host), LINE_MAX_CHARS);
      const newSection = text.length + 1 + line.length > SECTION_FILL_CHARS;
      if (
        full ||
        blocks.length + (newSection ? 2 : 1) > options.maxBlocks ||
        usedChars + text.length + 1 + line.length > options.budgetChars
      ) {
        full = true;
        break;
      }
      if (newSection) {
        blocks.push(section(text));
        usedChars += text.length;
        text = line;
      } else {
        text = `${text}\n${line}`;
      }
      shown++;
    }
    if (shown > 0) {
      blocks.push(section(text));
      usedChars += text.length;
    }
    if (shown < members.length) omitted.push({ id: group.id, count: members.length - shown });
  }
  return omitted;
}

/** `…and 12 more hosts (3 idle, 9 in use)`. */
export function omittedWords(tr: Translator, omitted: readonly OmittedGroup[]): string {
  const total = omitted.reduce((sum, group) => sum + group.count, 0);
  const which = omitted.map((group) => groupCount(tr, group.id, group.count)).join(", ");
  return tr.t("status.omitted", { total, which });
}
