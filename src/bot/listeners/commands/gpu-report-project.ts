import type { Translator } from "../../../messages/translator.ts";
import { todayLocal } from "../../../usecases/ledger/ledger-report.ts";
import { readProjectReport } from "../../../usecases/ledger/project-report.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { projectCsvFile, projectReportReply } from "../../views/ledger/report-project.ts";
import type { Reply } from "../../views/reply-message.ts";
import type { ReportUpload } from "./gpu-report.ts";

/**
 * `/gpu report project [YYYY-MM]`: the month (default this one) split among projects as the
 * ephemeral ack, and its CSV to upload to the asker's DM (`null` when the month has no complete day).
 */
export function gpuProjectReport(
  deps: BotDeps,
  tr: Translator,
  user: string,
  month: string | null,
): { reply: Reply; upload: ReportUpload | null } {
  const { state } = deps;
  const report = readProjectReport(
    {
      ...deps.costLedger,
      claims: state.claims,
      queue: state.queue,
      workloads: state.workloads,
      config: deps.config,
    },
    month ?? todayLocal(deps.costLedger).slice(0, 7),
  );
  if (report.fromDay === null) return { reply: projectReportReply(tr, report, null), upload: null };
  return { reply: projectReportReply(tr, report, "dm"), upload: { user, tr, ...projectCsvFile(tr, report) } };
}
