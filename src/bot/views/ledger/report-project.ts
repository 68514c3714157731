import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { percent } from "../../../reports/ledger-table.ts";
import {
  PROJECT_CSV_COLUMNS,
  type ProjectTableInput,
  projectCsv,
  projectName,
} from "../../../reports/project-table.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { context, type Reply, section } from "../reply-message.ts";

/**
 * `/gpu report project [month]`: each project's cost, share, what it used and the idle GPUs it
 * held, GPU-hours claimed and busy, hours waited; the unattributed part last, then the total (the
 * ledger's). `csvTo` says where the CSV went.
 */
export function projectReportReply(tr: Translator, report: ProjectTableInput, csvTo: "dm" | null): Reply {
  const title = tr.t("money.slack.title", { month: report.month });
  if (report.fromDay === null || report.toDay === null) {
    const text = `${title}\n${tr.t("money.noDay", { month: report.month })}`;
    return { text, blocks: [section(text)] };
  }
  const money = (amount: number) => tr.money(amount);
  const lines = report.rows.map((row) =>
    tr.t("money.slack.line", {
      name: escapeMrkdwn(projectName(tr, row.project)),
      cost: money(row.cost),
      share: percent(row.share),
      used: money(row.usedCost),
      idle: money(row.idleCost),
      claimed: row.claimedGpuHours.toFixed(1),
      busy: row.busyGpuHours.toFixed(1),
      waited: row.waitedHours.toFixed(1),
    }),
  );
  const range = tr.t("money.slack.range", {
    from: report.fromDay,
    to: report.toDay,
    zone: escapeMrkdwn(report.timezone),
    total: money(report.ledgerCost),
  });
  const text = [`${title} (${range})`, ...lines].join("\n");
  const notes = [tr.t("money.note.unattributed"), ...(csvTo === null ? [] : [tr.t("money.slack.csvInDm")])];
  return { text, blocks: [section(text), context(notes.join(" "))] };
}

/** The CSV upload of the report: name, title and content. */
export function projectCsvFile(
  tr: Translator,
  report: ProjectTableInput,
): { filename: string; title: string; content: string; comment: string } {
  const title = tr.t("money.csv.title", { month: report.month, currency: report.currency });
  return {
    filename: `gpu-cost-by-project_${report.month}.csv`,
    title,
    content: projectCsv(tr, report),
    comment: tr.t("money.csv.comment", { title, columns: PROJECT_CSV_COLUMNS.length }),
  };
}

/** The biweekly summary's per-project section: each project's cost, share, idle held and queue wait. */
export function projectSummaryBlocks(
  tr: Translator,
  report: Omit<ProjectTableInput, "month">,
): types.KnownBlock[] {
  if (report.fromDay === null || report.toDay === null) return [];
  const lines = report.rows.map((row) =>
    tr.t("money.summary.line", {
      name: escapeMrkdwn(projectName(tr, row.project)),
      cost: tr.money(row.cost),
      share: percent(row.share),
      idle: tr.money(row.idleCost),
      busy: row.busyGpuHours.toFixed(1),
      waited: row.waitedHours.toFixed(1),
    }),
  );
  const title = tr.t("money.summary.title", { from: report.fromDay, to: report.toDay });
  return [section(`:moneybag: ${title}\n${lines.slice(0, 30).join("\n")}`)];
}
