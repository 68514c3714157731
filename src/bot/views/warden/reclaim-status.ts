import type { HostLend, ReclaimCase } from "../../../domain/reclaim-case.ts";
import type { Translator } from "../../../messages/translator.ts";
import { escapeMrkdwn, mention } from "../alerts/alert-format.ts";
import { LIMITS, type Reply, section } from "../reply-message.ts";
import { lentTo, reclaimStatusWords } from "./reclaim-messages.ts";

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
export function withReclaimStatus(tr: Translator, reply: Reply, status: ReclaimStatus): Reply {
  const lines = [
    ...status.cases.map((entry) => `• *${escapeMrkdwn(entry.host)}*: ${reclaimStatusWords(tr, entry)}`),
    ...status.lends.map((lend) => `• *${escapeMrkdwn(lend.host)}*: ${lendWords(tr, lend)}`),
  ];
  const blocks = reply.blocks ?? [];
  if (lines.length === 0 || blocks.length >= LIMITS.blocksPerMessage) return reply;
  return { ...reply, blocks: [...blocks, section(`*${tr.t("reclaim.status.title")}*\n${lines.join("\n")}`)] };
}

function lendWords(tr: Translator, lend: HostLend): string {
  return tr.t("reclaim.status.lent", {
    to: lentTo(tr, lend.owner, lend.project),
    actor: mention(lend.byUser),
    day: tr.t("summary.day", { at: lend.sinceMs }),
  });
}
