import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type { FleetStatus, HostSummary } from "../../../usecases/fleet/read-fleet-status.ts";
import { context, LIMITS, type Reply, section } from "../reply-message.ts";
import { whenWords } from "../when-words.ts";
import { omittedWords, pushHostGroups } from "./host-groups.ts";
import { groupCount, hostWords, STATUS_GROUPS } from "./status-words.ts";

/** Room kept for the closing "…and N more" line. */
const TAIL_RESERVE_CHARS = 400;

/**
 * The fleet board: a summary line, then the hosts grouped by what they need (idle first, then no
 * data, …, busy), one line each. Within Slack's limits for any fleet size: at most 50 blocks, 3000
 * characters a section and about 11,000 in all; hosts that do not fit are counted per group in a
 * closing line that points to `/gpu status <host>`.
 */
export function renderFleetStatus(tr: Translator, status: FleetStatus, slashCommand: string): Reply {
  const { atMs, hosts } = status;
  const summary = summaryLine(tr, hosts);
  const hint = `\`${slashCommand} status <host>\``;
  const blocks: types.KnownBlock[] = [
    section(tr.t("status.fleet.title", { summary })),
    context(tr.t("status.fleet.asOf", { at: whenWords(tr, atMs, atMs), zone: tr.timeZone, hint })),
  ];
  const headerChars = blocks.reduce((sum, block) => sum + blockChars(block), 0);
  const omitted = pushHostGroups(tr, blocks, hosts, {
    statusOf: (host) => host.status,
    lineOf: (host) => `• *${host.host}* ${hostWords(tr, host, atMs)}`,
    maxBlocks: LIMITS.blocksPerMessage - 1,
    budgetChars: LIMITS.messageBlockTextChars - TAIL_RESERVE_CHARS - headerChars,
  });
  if (omitted.length > 0) {
    blocks.push(context(tr.t("status.fleet.more", { omitted: omittedWords(tr, omitted), hint })));
  }
  return { text: tr.t("status.fleet.text", { summary }), blocks };
}

/** `12 hosts · 96 GPUs, 40 busy · 3 idle · 1 no data`. */
export function summaryLine(tr: Translator, hosts: readonly HostSummary[]): string {
  const gpus = hosts.reduce((sum, host) => sum + host.gpus, 0);
  const busy = hosts.reduce((sum, host) => sum + host.busyGpus, 0);
  const parts = [tr.t("common.hosts", { count: hosts.length }), tr.t("status.fleet.gpus", { gpus, busy })];
  for (const group of STATUS_GROUPS) {
    const count = hosts.filter((host) => (group.statuses as readonly string[]).includes(host.status)).length;
    if (count > 0) parts.push(groupCount(tr, group.id, count));
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
