import type { RenewalFlag } from "../../checks/renewal.ts";
import type { HeatmapChart, HeatmapInput } from "../../reports/heatmap-chart.ts";
import type { SummaryChart } from "../../reports/summary-chart.ts";
import type { CsvFile } from "../../reports/summary-csv.ts";
import type { SummaryModel } from "../../reports/summary-model.ts";
import type { Logger } from "../../shared/logger.ts";
import type { RenderedReply } from "../ports.ts";
import type { TrackedPlan } from "../procurement/track-plans.ts";
import type { ProjectReport } from "./project-report.ts";

/** Turns the biweekly summary's facts into Slack messages (the bot's views implement it). */
export interface SummaryWords {
  /** The summary's per-project section (blocks appended to the message); absent: none. */
  projects?(report: Omit<ProjectReport, "month">): unknown[];
  /** The summary's section of approved plans flagged below half their GPU-hours; absent: none. */
  plans?(flagged: readonly TrackedPlan[]): unknown[];
  /** The summary message for the team channel. */
  summary(model: SummaryModel, options: SummaryMessageOptions): RenderedReply;
  /** The chart of idle cost per day, drawn in the summary's language. */
  chart(model: SummaryModel, options: { logger?: Pick<Logger, "warn"> }): SummaryChart;
  /** The hour-of-week heatmap per host, drawn in the summary's language. */
  heatmap(input: HeatmapInput, options: { logger?: Pick<Logger, "warn"> }): HeatmapChart;
  /** The full tables as CSV files named `<stem>-….csv`, with headers in the summary's language. */
  csv(model: SummaryModel, stem: string): CsvFile[];
  /** The block that says a summary was posted late: the bot was down, or Slack did not take it. */
  lateNotice(dueMs: number, why: "bot-down" | "slack"): unknown;
  /** The cost warden's DM about hosts not to renew. */
  renewal(flags: readonly RenewalFlag[], belowPct: number, warden: string | null): RenderedReply;
}

export interface SummaryMessageOptions {
  teamName: string;
  /** The slot was due at this instant but posted later (the bot was down). */
  lateSinceMs: number | null;
  /** The chart and CSVs come with the message; otherwise the message says how to get them. */
  filesAttached: boolean;
  /** Rows per list before `…and N more (in the CSV)`. */
  maxRows?: number;
  /**
   * People's names by member ID. The summary notifies nobody: no one has to act on it, and a
   * `<@U…>` mention would ping every claimant every two weeks. A person without a name shows as
   * their member ID.
   */
  names?: ReadonlyMap<string, string>;
}
