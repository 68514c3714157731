import { addMonths } from "../../checks/local-day.ts";
import type { Notifier } from "../ports.ts";
import type { WardenWords } from "../warden/warden-words.ts";
import { isChannelId } from "./post-summary.ts";
import { type ProjectReportDeps, readProjectReport } from "./project-report.ts";

/** What the monthly allocation reads and how it is said. */
export interface MonthlyAllocationDeps {
  config: ProjectReportDeps["config"] & { slack: { channel: string } };
  notifier: Notifier;
  wardenWords: WardenWords;
}

/**
 * The month before `month` split among projects, read from `source` (the ledger, claims, waits and
 * workloads; absent: nothing to post) (see {@link readProjectReport}) as a post for the
 * team channel with the CSV attached (`files.uploadV2`; with a channel name instead of an ID, the
 * message alone). `null` when no projects are configured or the bot has no allocation words. Call
 * {@link MonthlyAllocationPost.send} inside the slot's commit, so it is queued exactly once.
 */
export function monthlyAllocation(
  deps: MonthlyAllocationDeps,
  source: ProjectReportDeps | undefined,
  month: string,
): MonthlyAllocationPost | null {
  const words = deps.wardenWords.allocation;
  if (source === undefined || words === undefined || Object.keys(deps.config.projects).length === 0) {
    return null;
  }
  const report = readProjectReport(source, addMonths(month, -1));
  const message = words.call(deps.wardenWords, report);
  const channel = deps.config.slack.channel;
  return {
    month: report.month,
    send: () => {
      if (!isChannelId(channel)) {
        deps.notifier.send("chat.postMessage", { channel, text: message.text, blocks: message.blocks });
        return;
      }
      deps.notifier.send("files.uploadV2", {
        channel_id: channel,
        blocks: message.blocks,
        file_uploads: [
          { content: message.csv.content, filename: message.csv.filename, title: message.csv.title },
        ],
      });
    },
  };
}

/** The allocation of `month`, ready to be queued. */
export interface MonthlyAllocationPost {
  month: string;
  send(): void;
}
