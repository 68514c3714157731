import type { types } from "@slack/bolt";
import { localDayBounds } from "../../../checks/local-day.ts";
import type { LedgerReport } from "../../../domain/ledger-report.ts";
import type { Translator } from "../../../messages/translator.ts";
import { ledgerCsv } from "../../../reports/ledger-csv.ts";
import { percent } from "../../../reports/ledger-table.ts";
import type { SuspectSpan } from "../../../reports/suspect-spans.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { context, type Reply, section } from "../reply-message.ts";
import { monthName } from "../warden/warden-messages.ts";

const TOP_HOSTS = 5;

/**
 * `/gpu report`: the ledger of the last `days` complete days in a few lines — cost, idle cost, the
 * real usage rate, the hosts with the most idle cost and the rate per month. Every host and day is
 * in the CSV, which `csvTo` says where to find.
 */
export function ledgerReportReply(
  tr: Translator,
  report: LedgerReport,
  days: number,
  csvTo: "dm" | null,
  suspect: readonly SuspectSpan[] = [],
): Reply {
  const title = `*${tr.t("report.title", { days })}*`;
  if (report.fromDay === null || report.toDay === null) {
    const text =
      report.ledger === null
        ? emptyText(tr, title, report)
        : tr.t("report.outOfRange", {
            title,
            first: dayText(tr, report.ledger.first),
            last: dayText(tr, report.ledger.last),
          });
    return { text, blocks: [section(text)] };
  }
  const money = (amount: number | null) => (amount === null ? "—" : tr.money(amount));
  const { total } = report;
  const range = tr.t("report.range", {
    from: dayText(tr, report.fromDay),
    to: dayText(tr, report.toDay),
    zone: escapeMrkdwn(report.timezone),
  });
  const facts = {
    cost: `*${money(total.cost)}*`,
    idleCost: `*${money(total.idleCost)}*`,
    rate: `*${percent(total.usageRate)}*`,
    busy: total.busyGpuHours.toFixed(1),
    on: (total.busyGpuHours + total.idleGpuHours).toFixed(1),
    unknown: total.unknownGpuHours.toFixed(1),
  };
  const share =
    total.cost !== null && total.idleCost !== null && total.cost > 0
      ? `${Math.round((total.idleCost / total.cost) * 100)} %`
      : null;
  const overview =
    `${title} (${range})\n` +
    (share === null ? tr.t("report.overview", facts) : tr.t("report.overviewShare", { ...facts, share })) +
    (total.energyKWh === null ? "" : ` ${tr.t("report.energy", { kwh: total.energyKWh.toFixed(1) })}`) +
    (total.idleSaving === null
      ? ""
      : ` ${tr.t("report.saving", { saving: `*${money(total.idleSaving)}*` })}`);
  const top = report.hosts
    .filter((host) => (host.idleCost ?? 0) > 0)
    .slice(0, TOP_HOSTS)
    .map(
      (host) =>
        `• ${tr.t("report.top.line", {
          host: `*${escapeMrkdwn(host.host)}*`,
          idleCost: money(host.idleCost),
          cost: money(host.cost),
          rate: percent(host.usageRate),
        })}`,
    );
  const months = report.months.map(
    (month) =>
      `• ${tr.t("report.months.line", {
        month: monthName(tr, month.month),
        rate: percent(month.usageRate),
        busy: month.busyGpuHours.toFixed(1),
        on: (month.busyGpuHours + month.idleGpuHours).toFixed(1),
      })}`,
  );
  const blocks: types.KnownBlock[] = [section(overview)];
  if (top.length > 0) blocks.push(section(`*${tr.t("report.top.title")}*\n${top.join("\n")}`));
  if (months.length > 0) blocks.push(section(`*${tr.t("report.months.title")}*\n${months.join("\n")}`));
  const notes = reportNotes(tr, report, report.fromDay, report.toDay, suspect);
  if (csvTo === "dm") notes.push(tr.t("report.note.csvDm"));
  if (notes.length > 0) blocks.push(context(notes.join(" ")));
  const text = tr.t("report.text", {
    days,
    cost: money(total.cost),
    idleCost: money(total.idleCost),
    rate: percent(total.usageRate),
  });
  return { text, blocks };
}

/** No complete day yet: how much history there is, and when the first day is in the ledger. */
function emptyText(tr: Translator, title: string, report: LedgerReport): string {
  const { readings } = report;
  if (readings === null) return tr.t("report.empty", { title, zone: report.timezone });
  return tr.t("report.emptyReadings", {
    title,
    span: tr.duration(Math.max(0, readings.toMs - readings.fromMs)),
    since: tr.date(readings.fromMs, "weekdayDayTime"),
    zone: report.timezone,
  });
}

function reportNotes(
  tr: Translator,
  report: LedgerReport,
  fromDay: string,
  toDay: string,
  suspect: readonly SuspectSpan[],
): string[] {
  const notes: string[] = [];
  if (toDay < report.requested.toDay) notes.push(tr.t("report.note.ends", { day: dayText(tr, toDay) }));
  const readingsFromMs = report.readings?.fromMs ?? null;
  if (readingsFromMs !== null && readingsFromMs > localDayBounds(fromDay, report.timezone).startMs) {
    notes.push(tr.t("report.note.readingsStart", { since: tr.date(readingsFromMs, "weekdayDayTime") }));
  } else if (fromDay > report.requested.fromDay) {
    notes.push(tr.t("report.note.starts", { day: dayText(tr, fromDay) }));
  }
  if (report.total.unpricedDays > 0) notes.push(tr.t("report.note.unpriced"));
  if (suspect.length > 0) {
    const spans = suspect.slice(0, 3).map((span) =>
      tr.t("report.note.suspectSpan", {
        host: escapeMrkdwn(span.host),
        gpu: slotLabel(span.gpu),
        hours: span.hours.toFixed(1),
      }),
    );
    if (suspect.length > 3) spans.push(tr.t("report.note.suspectMore", { count: suspect.length - 3 }));
    notes.push(tr.t("report.note.suspect", { spans: spans.join(", ") }));
  }
  return notes;
}

/** The report's CSV file: its name, its title and its rows, headers in `tr`'s language. */
export function ledgerCsvFile(
  tr: Translator,
  report: LedgerReport,
  range: { fromDay: string; toDay: string },
): { filename: string; title: string; content: string } {
  return {
    filename: ledgerCsvName(report),
    title: ledgerCsvTitle(tr, report, range),
    content: ledgerCsv(tr, report),
  };
}

/** The title of the report's CSV file. */
export function ledgerCsvTitle(
  tr: Translator,
  report: Pick<LedgerReport, "timezone" | "currency">,
  range: { fromDay: string; toDay: string },
): string {
  return tr.t("report.csv.title", {
    from: range.fromDay,
    to: range.toDay,
    zone: report.timezone,
    currency: report.currency,
  });
}

/** The file name of the report's CSV. */
export function ledgerCsvName(report: Pick<LedgerReport, "fromDay" | "toDay">): string {
  return `gpu-cost-ledger_${report.fromDay}_${report.toDay}.csv`;
}

/** `Thu, Mar 5, 2026` of the local day `2026-03-05` (noon UTC names the same day in every zone within ±12 h). */
function dayText(tr: Translator, day: string): string {
  return tr.t("report.day", { at: Date.parse(`${day}T12:00:00Z`), year: day.slice(0, 4) });
}
