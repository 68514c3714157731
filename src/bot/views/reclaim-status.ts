import { dayjs } from "../../shared/time.ts";
import type { HostLend, ReclaimCase } from "../../store/reclaim-store.ts";
import { escapeMrkdwn, mention } from "./alert-format.ts";
import { reclaimStatusWords } from "./reclaim-messages.ts";
import { LIMITS, type Reply, section } from "./reply-message.ts";

/** What `/gpu status` shows of the reclaim workflow. */
export interface ReclaimStatus {
  /** Open cases (fleet), or the host's open or latest case (one host). */
  cases: readonly ReclaimCase[];
  /** Lends in force. */
  lends: readonly HostLend[];
  timezone: string;
}

/**
 * The status reply with a *Reclaim* section appended: hosts pending reclaim or waiting for a
 * decision, the latest decision of one host, and hosts lent out. Unchanged when there is nothing to
 * say or no room left (50 blocks).
 */
export function withReclaimStatus(reply: Reply, status: ReclaimStatus): Reply {
  const lines = [
    ...status.cases.map(
      (entry) => `• *${escapeMrkdwn(entry.host)}*: ${reclaimStatusWords(entry, status.timezone)}`,
    ),
    ...status.lends.map((lend) => `• *${escapeMrkdwn(lend.host)}*: ${lendWords(lend, status.timezone)}`),
  ];
  const blocks = reply.blocks ?? [];
  if (lines.length === 0 || blocks.length >= LIMITS.blocksPerMessage) return reply;
  return { ...reply, blocks: [...blocks, section(`*Reclaim*\n${lines.join("\n")}`)] };
}

function lendWords(lend: HostLend, zone: string): string {
  const to = [
    lend.owner === null ? null : mention(lend.owner),
    lend.project === null ? null : `project ${escapeMrkdwn(lend.project)}`,
  ]
    .filter((part) => part !== null)
    .join(", ");
  return `lent to ${to} by ${mention(lend.byUser)} on ${dayjs(lend.sinceMs).tz(zone).format("ddd D MMM")}`;
}
