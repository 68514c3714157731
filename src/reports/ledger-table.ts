import type { LedgerReport, LedgerTotals, ReportRangeProblem } from "../domain/ledger-report.ts";
import type { MessageId } from "../messages/catalog.ts";
import type { Translator } from "../messages/translator.ts";

const HEADER = [
  "ledger.header.host",
  "ledger.header.days",
  "ledger.header.hoursOn",
  "ledger.header.busy",
  "ledger.header.idle",
  "ledger.header.unknown",
  "ledger.header.usage",
  "ledger.header.energy",
] as const satisfies readonly MessageId[];

/**
 * `gpu-warden report`'s table for a terminal, in `tr`'s language: per host (highest idle cost
 * first), the total, then the real usage rate per month.
 */
export function ledgerTable(tr: Translator, report: LedgerReport): string {
  if (report.fromDay === null || report.toDay === null) return `${noDayText(tr, report)}\n`;
  const { currency } = report;
  const header = [
    ...HEADER.map((id) => tr.t(id)),
    tr.t("ledger.header.cost", { currency }),
    tr.t("ledger.header.idleCost", { currency }),
  ];
  const body = [
    header,
    ...report.hosts.map((h) => totalsCells(h.host, h)),
    totalsCells(tr.t("ledger.total"), report.total),
  ];
  const out = [
    tr.t("ledger.title", { from: report.fromDay, to: report.toDay, zone: report.timezone, currency }),
    ...alignedRows(body),
    "",
    tr.t("ledger.months.title"),
    ...report.months.map((m) => {
      const hours = tr.t("ledger.months.hours", {
        busy: fixed(m.busyGpuHours, 1),
        on: fixed(m.busyGpuHours + m.idleGpuHours, 1),
      });
      return `  ${m.month}  ${percent(m.usageRate).padStart(5)}  ${hours}`;
    }),
  ];
  if (report.total.unpricedDays > 0) {
    out.push("", tr.t("ledger.note.unpriced", { count: report.total.unpricedDays }));
  }
  if (report.toDay < report.requested.toDay) out.push("", tr.t("ledger.note.ends", { day: report.toDay }));
  return `${out.join("\n")}\n`;
}

/** A typed range the ledger cannot cover, said in `tr`'s language with what to type instead. */
export function reportRangeText(tr: Translator, problem: ReportRangeProblem): string {
  switch (problem.kind) {
    case "notADate":
      return tr.t("ledger.range.notADate", { option: problem.option, typed: problem.typed });
    case "notComplete":
      return tr.t("ledger.range.notComplete", { since: problem.since });
    case "backwards":
      return tr.t("ledger.range.backwards", { since: problem.since, until: problem.until });
    case "tooLong":
      return tr.t("ledger.range.tooLong", {
        since: problem.since,
        until: problem.until,
        max: String(problem.maxDays),
      });
  }
}

/** `77 %`; `—` when unknown. */
export function percent(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)} %`;
}

/** `value` to `decimals`, never `-0.0`. */
export function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

function noDayText(tr: Translator, report: LedgerReport): string {
  const asked = tr.t("ledger.asked", {
    from: report.requested.fromDay,
    to: report.requested.toDay,
    zone: report.timezone,
  });
  return report.ledger === null
    ? tr.t("ledger.empty", { asked })
    : tr.t("ledger.outOfRange", { asked, first: report.ledger.first, last: report.ledger.last });
}

function totalsCells(name: string, t: LedgerTotals): string[] {
  return [
    name,
    String(t.days),
    fixed(t.onHours, 1),
    fixed(t.busyGpuHours, 1),
    fixed(t.idleGpuHours, 1),
    fixed(t.unknownGpuHours, 1),
    percent(t.usageRate),
    t.energyKWh === null ? "—" : fixed(t.energyKWh, 1),
    t.cost === null ? "—" : fixed(t.cost, 2),
    t.idleCost === null ? "—" : fixed(t.idleCost, 2),
  ];
}

/** The first column left-aligned, the others right-aligned, by the width a terminal shows (CJK: 2). */
export function alignedRows(body: readonly string[][]): string[] {
  const widths = body[0]!.map((_, i) => Math.max(...body.map((cells) => shownWidth(cells[i]!))));
  return body.map((cells) =>
    cells
      .map((cell, i) => {
        const pad = " ".repeat(widths[i]! - shownWidth(cell));
        return i === 0 ? cell + pad : pad + cell;
      })
      .join("  ")
      .trimEnd(),
  );
}

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

function shownWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : 1;
  return width;
}
