import type { HostProjectUse } from "../../checks/host-projects.ts";
import type { ReclaimCase } from "../../domain/reclaim-case.ts";
import type { RenderedReply } from "../ports.ts";

/** Turns the reclaim review's and decisions' facts into Slack messages (the bot's views implement it). */
export interface ReclaimWords {
  /** To the warden: a host became pending reclaim. */
  pending(entry: ReclaimCase, ctx: ReclaimMessageContext): RenderedReply;
  /** To the warden: a pending host was busy again on the day starting `dayStartMs`. */
  cleared(
    entry: ReclaimCase,
    dayStartMs: number,
    dayMeanPct: number,
    ctx: ReclaimMessageContext,
  ): RenderedReply;
  /** To the warden: the observation is over, decide (with the buttons). */
  decision(entry: ReclaimCase, ctx: ReclaimMessageContext): RenderedReply;
  /** The channel's note of what was decided about a closed case. */
  decisionPost(entry: ReclaimCase): RenderedReply;
  /** To the person a host was lent to: it is theirs now. */
  lentDm(facts: { actor: string; host: string; project: string | null; owner: string }): RenderedReply;
}

/** What the reclaim messages need to know besides the case. */
export interface ReclaimMessageContext {
  timezone: string;
  belowPct: number;
  /** The warden the message is for; `null`: it goes to the channel because no warden is set. */
  warden: string | null;
  /** The projects whose claims held the host in the last 30 days, most first (absent: not known). */
  usedBy?: HostProjectUse[];
}
