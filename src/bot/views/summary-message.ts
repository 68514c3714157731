import type { types } from "@slack/bolt";
import type { RightsizingAdvice } from "../../checks/rightsizing.ts";
import {
  formatHours,
  formatMoney,
  formatPct,
  formatPctChange,
  formatRelativeChange,
} from "../../reports/summary-format.ts";
import type { SummaryModel } from "../../reports/summary-model.ts";
import { slotLabel } from "../../shared/gpu-slot.ts";
import { dayjs } from "../../shared/time.ts";
import type { SummaryMessageOptions } from "../../usecases/summary-words.ts";
import { escapeMrkdwn, formatGiB } from "./alert-format.ts";
import { context, LIMITS, type Reply, section } from "./reply-message.ts";

export type { SummaryMessageOptions };

/**
 * Text budget of one list: each section stays under Slack's 3,000 characters, and all of them
 * together (hosts, people, stops, containers: 1,500 each; reclaim and do-not-renew: 1,100 each;
 * plus the fixed text) under the ~11,000 that `msg_blocks_too_long` allows.
 */
const SECTION_BUDGET = 1_500;
const DAY_MS = 86_400_000;
const SHORT_BUDGET = 1_100;

/**
 * The biweekly summary message: headline figures with the trend, the hosts with the most idle cost,
 * people (claimed vs busy), stops and snoozes, container rightsizing, reclaim and do-not-renew. The
 * long tables are the attached CSVs. Only `section`, `context` and `divider` blocks, which
 * `files.completeUploadExternal` accepts. Pure.
 */
export function renderSummaryMessage(model: SummaryModel, options: SummaryMessageOptions): Reply {
  const zone = model.timezone;
  const maxRows = options.maxRows ?? 10;
  const money = (amount: number) => formatMoney(amount, model.currency);
  const moneyOrUnknown = (amount: number | null) => (amount === null ? "no price" : money(amount));
  const date = (ms: number) => dayjs(ms).tz(zone).format("ddd D MMM");
  const when = (ms: number) => dayjs(ms).tz(zone).format("ddd D MMM HH:mm");
  const period = `${dayjs(model.period.fromMs).tz(zone).format("D MMM")} – ${dayjs(model.period.toMs).tz(zone).format("D MMM YYYY")}`;
  const more = (left: number) => `…and ${left} more in the CSV`;
  const { fleet, previousFleet } = model;
  const names = options.names ?? new Map<string, string>();
  const person = (user: string) => escapeMrkdwn(names.get(user) ?? user);

  const blocks: types.KnownBlock[] = [];
  blocks.push(section(`*GPU summary for ${escapeMrkdwn(options.teamName)}: ${period}*`));
  if (options.lateSinceMs !== null) blocks.push(summaryLateNotice(options.lateSinceMs, zone, "bot-down"));
  const unpriced = fleet.unpricedGpus > 0 ? ` (${fleet.unpricedGpus} GPUs without a price left out)` : "";
  blocks.push({
    type: "section",
    fields: [
      field(
        "Mean GPU utilisation",
        `${formatPct(fleet.utilMeanPct)} (${formatPctChange(fleet.utilMeanPct, previousFleet.utilMeanPct)})`,
      ),
      field(
        "Idle GPU-hours",
        `${formatHours(fleet.idleGpuHours)} (${formatRelativeChange(fleet.idleGpuHours, previousFleet.gpus > 0 ? previousFleet.idleGpuHours : null)})`,
      ),
      field(
        "Idle cost",
        `${money(fleet.idleCost)} (${formatRelativeChange(fleet.idleCost, previousFleet.gpus > 0 ? previousFleet.idleCost : null)})${unpriced}`,
      ),
      field(
        "Saved by stops",
        `${money(model.savedCost)} (${model.stops.length} ${model.stops.length === 1 ? "stop" : "stops"})`,
      ),
      field("Hosts · GPUs", `${fleet.hosts} · ${fleet.gpus}`),
      field("Data", coverageText(model, when)),
    ],
  });
  blocks.push({ type: "divider" });

  const hostLines = model.hosts.map(
    (h) =>
      `• *${escapeMrkdwn(h.host)}* ${formatPct(h.utilMeanPct)} (${formatPctChange(h.utilMeanPct, h.previousUtilMeanPct)}), ` +
      `idle ${formatHours(h.idleGpuHours)} of GPU time, ${moneyOrUnknown(h.idleCost)}`,
  );
  blocks.push(
    section(
      `*Hosts by idle cost* (mean utilisation, change, idle time, idle cost)\n${rows(hostLines, maxRows, more)}`,
    ),
  );

  if (model.people.length > 0) {
    const personLines = model.people.map((p) => {
      const busyShare =
        p.claimedGpuHours > 0 ? ` (${formatPct((100 * p.busyGpuHours) / p.claimedGpuHours)} busy)` : "";
      const claims =
        p.claims > 0
          ? `claimed ${formatHours(p.claimedGpuHours)}, busy ${formatHours(p.busyGpuHours)}${busyShare}, idle cost ${moneyOrUnknown(p.idleCost)}`
          : "no claims";
      const acts = [
        p.stops > 0 ? `${p.stops} ${p.stops === 1 ? "stop" : "stops"} saving ${money(p.savedCost)}` : null,
        p.keeps > 0 ? `${p.keeps} ${p.keeps === 1 ? "keep" : "keeps"}` : null,
      ].filter((part) => part !== null);
      return `• ${person(p.user)}: ${claims}${acts.length > 0 ? `; ${acts.join(", ")}` : ""}`;
    });
    blocks.push(section(`*People* (GPU time claimed vs busy)\n${rows(personLines, maxRows, more)}`));
  }

  const actionLines = [
    ...model.stops.map(
      (s) =>
        `• ${escapeMrkdwn(s.host)} stopped by ${person(s.actor)} ${when(s.atMs)}${s.forced ? " (forced)" : ""}: ` +
        `${s.nextUseMs === null ? "not used again" : `next used ${when(s.nextUseMs)}`}, ` +
        `off ${formatHours(s.offHours)}, saved ${moneyOrUnknown(s.savedCost)}`,
    ),
  ];
  const keptHours = model.keeps.reduce((sum, k) => sum + k.keptHours, 0);
  const keepLine =
    model.keeps.length === 0
      ? "No snoozes."
      : `Snoozes: ${model.keeps.length} ${model.keeps.length === 1 ? "keep" : "keeps"}, ${formatHours(keptHours)} kept in all.`;
  blocks.push(
    section(
      `*Stops and snoozes*\n${actionLines.length === 0 ? "No stops." : rows(actionLines, maxRows, more)}\n${keepLine}`,
    ),
  );

  blocks.push(
    section(`*Containers* (requests vs use over the period)\n${containerText(model, maxRows, more)}`),
  );

  const reclaimLines = model.reclaim.map((r) =>
    r.state === "pending"
      ? `• ${escapeMrkdwn(r.host)}: pending reclaim since ${date(r.sinceMs)} (30-day mean ${formatPct(r.windowMeanPct)}), decision due ${date(r.untilMs)}`
      : `• ${escapeMrkdwn(r.host)}: waiting for the cost warden's decision since ${date(r.untilMs)}`,
  );
  const renewLines = model.doNotRenew.map(
    (f) =>
      `• ${escapeMrkdwn(f.host)}: ${formatPct(f.currentUtilPct)} this period, ${formatPct(f.previousUtilPct)} the one before`,
  );
  blocks.push(
    section(
      `*Reclaim*\n${reclaimLines.length === 0 ? "No host is pending reclaim." : rows(reclaimLines, maxRows, more, SHORT_BUDGET)}\n` +
        `*Do not renew* (rented or cloud, under ${formatPct(model.renewalBelowPct)} two periods running)\n` +
        `${renewLines.length === 0 ? "None." : rows(renewLines, maxRows, more, SHORT_BUDGET)}`,
    ),
  );

  const suspect = model.suspect ?? [];
  if (suspect.length > 0) {
    const spans = suspect
      .slice(0, 5)
      .map(
        (span) =>
          `${escapeMrkdwn(span.host)} GPU ${slotLabel(span.gpu)} ${formatHours(span.hours)}${span.ongoing ? " (ongoing)" : ""}`,
      );
    if (suspect.length > 5) spans.push(`${suspect.length - 5} more`);
    blocks.push(
      context(
        `❔ Suspect readings (100 % with no memory at idle power, a known driver fault): ${spans.join(", ")}. ` +
          "These hours count as busy in the figures above, though the GPUs were probably idle.",
      ),
    );
  }

  blocks.push(
    context(
      options.filesAttached
        ? "Attached: a chart of idle cost per day by host, and the full tables as CSV. " +
            "Idle means below the idle threshold; time without readings is never counted as idle."
        : "The chart and the CSV tables need `slack.channel` set to the channel ID (e.g. C0123ABCD) to be uploaded.",
    ),
  );

  const text =
    `GPU summary ${period}: mean utilisation ${formatPct(fleet.utilMeanPct)}, ` +
    `idle ${formatHours(fleet.idleGpuHours)} of GPU time costing ${money(fleet.idleCost)}`;
  return { text, blocks: blocks.slice(0, LIMITS.blocksPerMessage) };
}

/** `all 14 days; readings for 94 % of GPU time, 232 h without (never counted as idle)`. */
function coverageText(model: SummaryModel, when: (ms: number) => string): string {
  const { period, coverage, fleet } = model;
  const periodDays = Math.round((period.toMs - period.fromMs) / DAY_MS);
  // NOTE: the last hour before the slot is rolled up a few minutes after it: not worth a mention.
  const coveredDays = (coverage.untilMs - coverage.fromMs) / DAY_MS;
  const span =
    coveredDays >= periodDays - 1.5 / 24
      ? `all ${periodDays} days`
      : `${Math.round(coveredDays * 10) / 10} of ${periodDays} days (${when(coverage.fromMs)} – ${when(coverage.untilMs)})`;
  if (coverage.readShare === null) return `${span}; no GPU seen`;
  return (
    `${span}; readings for ${formatPct(100 * coverage.readShare)} of GPU time, ` +
    `${formatHours(fleet.unknownGpuHours)} without (never counted as idle)`
  );
}

/**
 * The line that says a summary was posted late: it was due at `dueMs`, and either the bot was down
 * then (`bot-down`, known when it is queued) or Slack did not take it for a while (`slack`, added by
 * the outbox when it is sent late).
 */
export function summaryLateNotice(
  dueMs: number,
  zone: string,
  why: "bot-down" | "slack",
): types.ContextBlock {
  const due = dayjs(dueMs).tz(zone).format("ddd D MMM HH:mm");
  return context(
    why === "bot-down"
      ? `:hourglass: Posted late: this summary was due ${due} while the bot was down.`
      : `:hourglass: Posted late: this summary was due ${due} and waited for Slack to take it.`,
  );
}

function containerText(model: SummaryModel, maxRows: number, more: (left: number) => string): string {
  const containers = model.containers;
  switch (containers.status) {
    case "off":
      return "No Prometheus source with containers is configured.";
    case "failed":
      return `Prometheus did not answer: ${escapeMrkdwn(containers.message)}`;
    case "ok": {
      const flagged = containers.advice.filter((a) => a.flagged);
      const head =
        containers.advice.length === 0
          ? "No containers with requests were seen."
          : `${containers.advice.length} container ${containers.advice.length === 1 ? "group" : "groups"}, ${flagged.length} using under half of what ${containers.advice.length === 1 ? "it requests" : "they request"}.`;
      return flagged.length === 0 ? head : `${head}\n${rows(flagged.map(adviceLine), maxRows, more)}`;
    }
    default:
      return containers satisfies never;
  }
}

/** `• ml/trainer/main: CPU peak 1.2 of 8 cores (15 %) → request 1.44; GPU memory max 9.8 GiB of 80 GiB → 13 GiB`. */
export function adviceLine(advice: RightsizingAdvice): string {
  const parts: string[] = [];
  const { usage, cpu, gpuMem } = advice;
  if (cpu !== null && usage.cpuRequestCores !== null && usage.cpuPeakCores !== null) {
    const change = cpu.direction === "ok" ? "" : ` → request ${cores(cpu.recommendedCores)}`;
    parts.push(
      `CPU peak ${cores(usage.cpuPeakCores)} of ${cores(usage.cpuRequestCores)} cores (${formatPct(100 * cpu.peakRatio)})${change}`,
    );
  }
  if (gpuMem !== null && usage.gpuMemMaxMiB !== null && usage.gpuMemTotalMiB !== null) {
    const change = gpuMem.direction === "lower" ? ` → ${formatGiB(gpuMem.recommendedMiB)} would do` : "";
    parts.push(
      `GPU memory max ${formatGiB(usage.gpuMemMaxMiB)} of ${formatGiB(usage.gpuMemTotalMiB)} (${formatPct(100 * gpuMem.maxRatio)})${change}`,
    );
  }
  return `• ${escapeMrkdwn(usage.group)}: ${parts.join("; ")}`;
}

/** Cores with up to two decimals: `1.44`, `8`. */
function cores(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function field(label: string, value: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: `*${label}*\n${value}` };
}

/** At most `maxRows` lines within the section budget, then `…and N more in the CSV`. */
function rows(
  lines: readonly string[],
  maxRows: number,
  more: (left: number) => string,
  budget = SECTION_BUDGET,
): string {
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const left = lines.length - i;
    const fits = used + line.length + 1 + more(left).length + 1 <= budget;
    if (i >= maxRows || !fits) {
      out.push(more(left));
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join("\n");
}
