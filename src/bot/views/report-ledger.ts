import type { types } from "@slack/bolt";
import type { SuspectSpan } from "../../reports/suspect-spans.ts";
import { slotLabel } from "../../shared/gpu-slot.ts";
import { dayjs } from "../../shared/time.ts";
import type { LedgerReport } from "../../usecases/ledger-report.ts";
import { percent } from "../../usecases/ledger-table.ts";
import { escapeMrkdwn, formatMoney } from "./alert-format.ts";
import { context, type Reply, section } from "./reply-message.ts";

const TOP_HOSTS = 5;

/**
 * `/gpu report`: the ledger of the last `days` complete days in a few lines — cost, idle cost, the
 * real usage rate, the hosts with the most idle cost and the rate per month. Every host and day is
 * in the CSV, which `csvTo` says where to find.
 */
export function ledgerReportReply(
  report: LedgerReport,
  days: number,
  csvTo: "dm" | null,
  suspect: readonly SuspectSpan[] = [],
): Reply {
  const title = `*Cost ledger, last ${days} day${days === 1 ? "" : "s"}*`;
  if (report.fromDay === null || report.toDay === null) {
    const text =
      report.ledger === null
        ? `${title}: no complete day in the ledger yet. It is written from the hourly rollups once a ` +
          `day (in ${report.timezone}) is over.`
        : `${title}: no ledger day in that range. The ledger has ${dayText(report.ledger.first)} – ` +
          `${dayText(report.ledger.last)}.`;
    return { text, blocks: [section(text)] };
  }
  const money = (amount: number | null) => (amount === null ? "—" : formatMoney(amount, report.currency));
  const { total } = report;
  const idleShare =
    total.cost !== null && total.idleCost !== null && total.cost > 0
      ? ` (${Math.round((total.idleCost / total.cost) * 100)} % of it)`
      : "";
  const range = `${dayText(report.fromDay)} – ${dayText(report.toDay)}, ${escapeMrkdwn(report.timezone)}`;
  const overview =
    `${title} (${range})\n` +
    `Cost *${money(total.cost)}*, idle cost *${money(total.idleCost)}*${idleShare}. ` +
    `Real usage rate *${percent(total.usageRate)}*: ${total.busyGpuHours.toFixed(1)} busy of ` +
    `${(total.busyGpuHours + total.idleGpuHours).toFixed(1)} GPU-hours on; ` +
    `${total.unknownGpuHours.toFixed(1)} GPU-hours without data.` +
    (total.energyKWh === null ? "" : ` Energy ${total.energyKWh.toFixed(1)} kWh.`);
  const top = report.hosts
    .filter((host) => (host.idleCost ?? 0) > 0)
    .slice(0, TOP_HOSTS)
    .map(
      (host) =>
        `• *${escapeMrkdwn(host.host)}*: ${money(host.idleCost)} idle of ${money(host.cost)}, ` +
        `${percent(host.usageRate)} used`,
    );
  const months = report.months.map(
    (month) =>
      `• ${dayjs(`${month.month}-01T00:00:00Z`).utc().format("MMMM YYYY")}: ${percent(month.usageRate)} ` +
      `(${month.busyGpuHours.toFixed(1)} of ${(month.busyGpuHours + month.idleGpuHours).toFixed(1)} GPU-hours on)`,
  );
  const blocks: types.KnownBlock[] = [section(overview)];
  if (top.length > 0) blocks.push(section(`*Most idle cost*\n${top.join("\n")}`));
  if (months.length > 0) blocks.push(section(`*Real usage rate by month*\n${months.join("\n")}`));
  const notes: string[] = [];
  if (report.toDay < report.requested.toDay) notes.push(`The ledger ends ${dayText(report.toDay)}.`);
  if (report.fromDay > report.requested.fromDay) notes.push(`It starts ${dayText(report.fromDay)}.`);
  if (total.unpricedDays > 0) {
    notes.push("Hosts without `cost_per_hour` or `purchase_price` have no cost (—).");
  }
  if (suspect.length > 0) {
    const spans = suspect
      .slice(0, 3)
      .map((span) => `${escapeMrkdwn(span.host)} GPU ${slotLabel(span.gpu)} ${span.hours.toFixed(1)} h`);
    if (suspect.length > 3) spans.push(`${suspect.length - 3} more`);
    notes.push(
      `❔ Suspect readings (100 % with no memory at idle power, a known driver fault) are counted busy here: ${spans.join(", ")}.`,
    );
  }
  if (csvTo === "dm") notes.push("The CSV with every host and day comes to you as a DM.");
  if (notes.length > 0) blocks.push(context(notes.join(" ")));
  const text =
    `Cost ledger, last ${days} days: cost ${money(total.cost)}, idle cost ${money(total.idleCost)}, ` +
    `real usage rate ${percent(total.usageRate)}`;
  return { text, blocks };
}

/** The file name of the report's CSV. */
export function ledgerCsvName(report: Pick<LedgerReport, "fromDay" | "toDay">): string {
  return `gpu-cost-ledger_${report.fromDay}_${report.toDay}.csv`;
}

function dayText(day: string): string {
  return dayjs(`${day}T00:00:00Z`).utc().format("ddd D MMM YYYY");
}
