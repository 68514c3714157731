import type { webApi } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { suspectSpansOverDays } from "../../../usecases/alerts/suspect-notices.ts";
import { lastDaysRange, readLedgerReport, todayLocal } from "../../../usecases/ledger/ledger-report.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { missingScope, slackErrorCode, slackErrorHint } from "../../transport/slack-error-hint.ts";
import { ledgerCsvFile, ledgerReportReply } from "../../views/ledger/report-ledger.ts";
import type { Reply } from "../../views/reply-message.ts";

/** The CSV of a `/gpu report`, uploaded after the ack. */
export interface ReportUpload {
  user: string;
  /** The upload's comment, and what to say when it failed, in the asker's language. */
  tr: Translator;
  filename: string;
  title: string;
  /** The CSV text, or a file's bytes (a chart). */
  content: string | Buffer;
  /** The upload's comment; absent: the ledger's. */
  comment?: string;
}

/**
 * `/gpu report [<days>d]`: the ledger of the last `days` complete local days as the ephemeral ack,
 * and its CSV to upload to the asker's DM (`null` when there is no complete day).
 */
export function gpuReport(
  deps: BotDeps,
  tr: Translator,
  user: string,
  days: number,
): { reply: Reply; upload: ReportUpload | null } {
  const report = readLedgerReport(deps.costLedger, lastDaysRange(days, todayLocal(deps.costLedger)));
  if (report.fromDay === null || report.toDay === null)
    return { reply: ledgerReportReply(tr, report, days, null), upload: null };
  const range = { fromDay: report.fromDay, toDay: report.toDay };
  const suspect = suspectSpansOverDays(deps.state.audit, range, report.timezone);
  return {
    reply: ledgerReportReply(tr, report, days, "dm", suspect),
    upload: { user, tr, ...ledgerCsvFile(tr, report, range) },
  };
}

/**
 * Uploads the CSV to the asker's DM with the bot. NOTE: files.completeUploadExternal takes only
 * channel IDs (C…, G…, D…), not user IDs, so the DM is opened first (`conversations.open`, im:write).
 * Returns what to tell the asker when it failed, `null` when it worked.
 */
export async function uploadReportCsv(
  deps: Pick<BotDeps, "logger">,
  client: webApi.WebClient,
  upload: ReportUpload,
): Promise<string | null> {
  try {
    const opened = await client.conversations.open({ users: upload.user });
    const channel = opened.channel?.id;
    if (channel === undefined) throw new Error("conversations.open answered without a channel id");
    await client.filesUploadV2({
      channel_id: channel,
      filename: upload.filename,
      title: upload.title,
      ...(typeof upload.content === "string" ? { content: upload.content } : { file: upload.content }),
      initial_comment: upload.comment ?? upload.tr.t("report.csv.comment", { title: upload.title }),
    });
    return null;
  } catch (error) {
    const code = slackErrorCode(error);
    const hint =
      code === undefined
        ? undefined
        : slackErrorHint(code, { botName: "gpu-warden", needed: missingScope(error) });
    deps.logger.error(
      { err: error, user: upload.user, slackError: code, hint },
      "the report CSV could not be uploaded",
    );
    return code === undefined
      ? upload.tr.t("report.csv.failed")
      : upload.tr.t("report.csv.failedCode", { code });
  }
}
