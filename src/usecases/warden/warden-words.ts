import type { ProjectReport } from "../ledger/project-report.ts";
import type { RenderedMessage } from "../ports.ts";
import type { WardenChange } from "./rotate-warden.ts";
import type { WardenChecklist } from "./warden-checklist.ts";

/** The monthly announcement: who the cost warden is this month, and who is next. */
export interface WardenAnnouncementFacts {
  month: string;
  warden: string;
  next: { month: string; user: string | null } | null;
  /** Posted after the 1st because the bot was not running then. */
  late: boolean;
}

/** Turns the cost warden announcements' facts into Slack messages (the bot's views implement it). */
export interface WardenWords {
  /** The channel post on the 1st. */
  announcement(facts: WardenAnnouncementFacts): RenderedMessage;
  /** The warden's checklist DM. */
  checklist(checklist: WardenChecklist): RenderedMessage;
  /** The channel post after a swap or a skip, done by `actor`. */
  change(change: WardenChange, actor: string): RenderedMessage;
  /** The month just ended split among projects, posted with the hand-over, and its CSV. */
  allocation?(report: ProjectReport): RenderedMessage & { csv: AllocationCsv };
}

/** A CSV file to attach. */
export interface AllocationCsv {
  filename: string;
  title: string;
  content: string;
}
