import { addMonths } from "../../checks/local-day.ts";
import type { Logger } from "../../shared/logger.ts";
import { monthlyAllocation } from "../ledger/monthly-allocation.ts";
import type { ProjectReportDeps } from "../ledger/project-report.ts";
import type { Notifier } from "../ports.ts";
import type { WardenChange, WardenRotation } from "./rotate-warden.ts";
import { readWardenChecklist, type WardenChecklistDeps } from "./warden-checklist.ts";
import type { WardenWords } from "./warden-words.ts";

export interface AnnounceWardenDeps extends WardenChecklistDeps {
  wardens: WardenRotation;
  notifier: Notifier;
  logger: Logger;
  /** The announcements' words (the bot's views: `wardenWords`). */
  wardenWords: WardenWords;
}

/** A scheduled slot as the announcement needs it (see `JobSlot`). */
export interface AnnouncementSlot {
  atMs: number;
  late: boolean;
  commit(effect: () => void): boolean;
}

/**
 * The monthly announcement for the month of `slot`: the channel learns who the cost warden is, the
 * warden gets the checklist by DM, and the month just ended is posted split among projects with its
 * CSV, read from `allocationSource` (see {@link monthlyAllocation}; without a roster, the allocation alone). All are queued in the
 * outbox in the same transaction that marks the slot done, so a restart never announces a month
 * twice and a crash never loses it.
 */
export function announceWarden(
  deps: AnnounceWardenDeps,
  slot: AnnouncementSlot,
  allocationSource?: ProjectReportDeps,
): "announced" | "no-roster" | "already-announced" {
  const month = deps.wardens.monthAt(slot.atMs);
  const warden = deps.wardens.wardenOf(month);
  const allocation = monthlyAllocation(deps, allocationSource, month);
  if (warden === null) {
    deps.logger.warn({ month }, "no cost warden roster (warden.roster): nobody announced");
    if (allocation !== null) slot.commit(allocation.send);
    return "no-roster";
  }
  const nextMonth = addMonths(month, 1);
  const announcement = deps.wardenWords.announcement({
    month,
    warden,
    next: { month: nextMonth, user: deps.wardens.wardenOf(nextMonth) },
    late: slot.late,
  });
  const checklist = deps.wardenWords.checklist(readWardenChecklist(deps, warden, month, deps.clock.now()));
  const done = slot.commit(() => {
    deps.notifier.send("chat.postMessage", { channel: deps.config.slack.channel, ...announcement });
    allocation?.send();
    deps.notifier.send("chat.postMessage", { channel: warden, ...checklist });
  });
  return done ? "announced" : "already-announced";
}

/** After a swap or a skip: the channel is told, and the new warden gets the checklist. */
export function announceWardenChange(deps: AnnounceWardenDeps, change: WardenChange, actor: string): void {
  const nowMs = deps.clock.now();
  const checklist = deps.wardenWords.checklist(readWardenChecklist(deps, change.to, change.month, nowMs));
  deps.notifier.send("chat.postMessage", {
    channel: deps.config.slack.channel,
    ...deps.wardenWords.change(change, actor),
  });
  deps.notifier.send("chat.postMessage", { channel: change.to, ...checklist });
}
