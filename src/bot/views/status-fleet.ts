import type { types } from "@slack/bolt";
import { localWhen } from "../../usecases/action-text.ts";
import type { FleetStatus, HostSummary } from "../../usecases/read-fleet-status.ts";
import { clip, context, LIMITS, type Reply, section } from "./reply-message.ts";
import { hostWords, STATUS_GROUPS } from "./status-words.ts";

const LINE_MAX_CHARS = 400;
/** Room kept for the closing "…and N more" line. */
const TAIL_RESERVE_CHARS = 400;
/** Sections fill up to this many characters before a new one starts. */
const SECTION_FILL_CHARS = LIMITS.sectionTextChars - 100;

/**
 * The fleet board: a summary line, then the hosts grouped by what they need (idle first, then no
 * data, …, busy), one line each. Within Slack's limits for any fleet size: at most 50 blocks, 3000
 * characters a section and about 11,000 in all; hosts that do not fit are counted per group in a
 * closing line that points to `/gpu status <host>`.
 */
export function renderFleetStatus(status: FleetStatus, slashCommand: string): Reply {
  const { atMs, timezone, hosts } = status;
  const summary = summaryLine(hosts);
  const blocks: types.KnownBlock[] = [
    section(`*Fleet* · ${summary}`),
    context(
      `As of ${localWhen(atMs, atMs, timezone)} (${timezone}) · \`${slashCommand} status <host>\` for one host`,
    ),
  ];
  if (hosts.length === 0) {
    blocks.push(section("No hosts yet: configure a source, and the first poll fills this board."));
    return { text: `Fleet: ${summary}`, blocks };
  }
  let usedChars = blocks.reduce((sum, block) => sum + blockChars(block), 0);
  const budgetChars = LIMITS.messageBlockTextChars - TAIL_RESERVE_CHARS;
  const maxBlocks = LIMITS.blocksPerMessage - 1;
  const omitted: Array<{ title: string; count: number }> = [];
  let full = false;
  for (const group of STATUS_GROUPS) {
    const members = hosts.filter((host) => (group.statuses as readonly string[]).includes(host.status));
    if (members.length === 0) continue;
    let text = `*${group.title}* (${members.length})`;
    let shown = 0;
    for (const host of members) {
      const line = clip(`• *${host.host}* ${hostWords(host, atMs, timezone)}`, LINE_MAX_CHARS);
      const newSection = text.length + 1 + line.length > SECTION_FILL_CHARS;
      const blocksNeeded = blocks.length + (newSection ? 2 : 1);
      const charsNeeded = usedChars + text.length + 1 + line.length;
      if (full || blocksNeeded > maxBlocks || charsNeeded > budgetChars) {
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
    if (shown < members.length)
      omitted.push({ title: group.title.toLowerCase(), count: members.length - shown });
  }
  if (omitted.length > 0) {
    const total = omitted.reduce((sum, group) => sum + group.count, 0);
    const which = omitted.map((group) => `${group.count} ${group.title}`).join(", ");
    blocks.push(
      context(
        `…and ${total} more hosts (${which}). \`${slashCommand} status <host>\` shows any host in detail.`,
      ),
    );
  }
  return { text: `Fleet: ${summary}`, blocks };
}

/** `12 hosts · 96 GPUs, 40 busy · 3 idle · 1 no data`. */
export function summaryLine(hosts: readonly HostSummary[]): string {
  const gpus = hosts.reduce((sum, host) => sum + host.gpus, 0);
  const busyGpus = hosts.reduce((sum, host) => sum + host.busyGpus, 0);
  const parts = [
    `${hosts.length} ${hosts.length === 1 ? "host" : "hosts"}`,
    `${gpus} GPUs, ${busyGpus} busy`,
  ];
  for (const group of STATUS_GROUPS) {
    const count = hosts.filter((host) => (group.statuses as readonly string[]).includes(host.status)).length;
    if (count > 0) parts.push(`${count} ${group.title.toLowerCase()}`);
  }
  return parts.join(" · ");
}

function blockChars(block: types.KnownBlock): number {
  if (block.type === "section") return block.text?.text.length ?? 0;
  if (block.type === "context") {
    return block.elements.reduce((sum, element) => sum + ("text" in element ? element.text.length : 0), 0);
  }
  return 0;
}
