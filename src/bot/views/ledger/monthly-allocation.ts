import type { Translator } from "../../../messages/translator.ts";
import type { ProjectReport } from "../../../usecases/ledger/project-report.ts";
import type { RenderedMessage } from "../../../usecases/ports.ts";
import type { AllocationCsv } from "../../../usecases/warden/warden-words.ts";
import { section } from "../reply-message.ts";
import { projectCsvFile, projectReportReply } from "./report-project.ts";

/**
 * The monthly allocation posted on the 1st with the warden's hand-over: the month just ended split
 * among projects (as `/gpu report project` shows it) and its CSV, to attach.
 */
export function monthlyAllocationMessage(
  tr: Translator,
  report: ProjectReport,
): RenderedMessage & { csv: AllocationCsv } {
  const intro = tr.t("money.monthly.intro", { month: report.month });
  const reply = projectReportReply(tr, report, null);
  const { filename, title, content } = projectCsvFile(tr, report);
  return {
    text: `${intro}\n${reply.text}`,
    blocks: [section(intro), ...(reply.blocks ?? [])],
    csv: { filename, title, content },
  };
}
