import type { RunAdvice } from "../../checks/run-advice.ts";
import type { StoredHygieneItem } from "../../domain/hygiene.ts";
import type { RenderedReply } from "../ports.ts";

/** Turns hygiene items into Slack messages (the bot's views implement it). */
export interface HygieneWords {
  /** The cost warden's weekly DM: what is new or changed, by host. */
  checklist(items: readonly StoredHygieneItem[], warden: string): RenderedReply;
  /** The summary's hygiene and advice section, posted in the channel after the summary. */
  summarySection(
    items: readonly StoredHygieneItem[],
    advice: { advice: RunAdvice; spotMaxHours: number; spotDiscountPct: number } | null,
  ): RenderedReply;
}
