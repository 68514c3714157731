import type { types } from "@slack/bolt";
import type { RightsizingAdvice } from "../../checks/rightsizing.ts";
import type { Translator } from "../../messages/translator.ts";
import { formatPct, formatRelativeChange, hoursIn, pctChangeIn } from "../../reports/summary-format.ts";
import type { SummaryModel } from "../../reports/summary-model.ts";
import { slotLabel } from "../../shared/gpu-slot.ts";
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
export function renderSummaryMessage(
  tr: Translator,
  model: SummaryModel,
  options: SummaryMessageOptions,
): Reply {
  const maxRows = options.maxRows ?? 10;
  const money = (amount: number) => tr.money(amount);
  const moneyOrUnknown = (amount: number | null) =>
    amount === null ? tr.t("summary.noPrice") : money(amount);
  const hours = (h: number) => hoursIn(tr, h);
  const pct = (p: number | null) => formatPct(p);
  const date = (ms: number) => tr.t("summary.day", { at: ms });
  const when = (ms: number) => tr.t("summary.when", { at: ms });
  const period = tr.t("common.period", { from: model.period.fromMs, to: model.period.toMs });
  const more = (left: number) => tr.t("summary.more", { count: left });
  const withChange = (value: string, change: string) => tr.t("summary.valueChange", { value, change });
  const { fleet, previousFleet } = model;
  const names = options.names ?? new Map<string, string>();
  const person = (user: string) => escapeMrkdwn(names.get(user) ?? user);
  const heading = (title: string, note: string) => tr.t("summary.heading", { title: `*${title}*`, note });

  const blocks: types.KnownBlock[] = [];
  blocks.push(section(`*${tr.t("summary.title", { team: escapeMrkdwn(options.teamName), period })}*`));
  if (options.lateSinceMs !== null) blocks.push(summaryLateNotice(tr, options.lateSinceMs, "bot-down"));
  const unpriced =
    fleet.unpricedGpus > 0 ? ` ${tr.t("summary.unpriced", { count: fleet.unpricedGpus })}` : "";
  const previousOf = (value: number) => (previousFleet.gpus > 0 ? value : null);
  blocks.push({
    type: "section",
    fields: [
      field(
        tr.t("summary.field.util"),
        withChange(pct(fleet.utilMeanPct), pctChangeIn(tr, fleet.utilMeanPct, previousFleet.utilMeanPct)),
      ),
      field(
        tr.t("summary.field.idleHours"),
        withChange(
          hours(fleet.idleGpuHours),
          formatRelativeChange(fleet.idleGpuHours, previousOf(previousFleet.idleGpuHours)),
        ),
      ),
      field(
        tr.t("summary.field.idleCost"),
        withChange(
          money(fleet.idleCost),
          formatRelativeChange(fleet.idleCost, previousOf(previousFleet.idleCost)),
        ) + unpriced,
      ),
      field(
        tr.t("summary.field.saved"),
        tr.t("summary.savedValue", { saved: money(model.savedCost), count: model.stops.length }),
      ),
      field(tr.t("summary.field.hostsGpus"), `${fleet.hosts} · ${fleet.gpus}`),
      field(tr.t("summary.field.data"), coverageText(tr, model, when)),
    ],
  });
  blocks.push({ type: "divider" });

  const hostLines = model.hosts.map(
    (h) =>
      `• ${tr.t("summary.hosts.line", {
        host: `*${escapeMrkdwn(h.host)}*`,
        util: pct(h.utilMeanPct),
        change: pctChangeIn(tr, h.utilMeanPct, h.previousUtilMeanPct),
        hours: hours(h.idleGpuHours),
        cost: moneyOrUnknown(h.idleCost),
      })}`,
  );
  blocks.push(
    section(
      `${heading(tr.t("summary.hosts.title"), tr.t("summary.hosts.columns"))}\n${rows(hostLines, maxRows, more)}`,
    ),
  );

  if (model.people.length > 0) {
    const personLines = model.people.map((p) => {
      const common = {
        claimed: hours(p.claimedGpuHours),
        busy: hours(p.busyGpuHours),
        cost: moneyOrUnknown(p.idleCost),
      };
      const claims =
        p.claims === 0
          ? tr.t("summary.person.noClaims")
          : p.claimedGpuHours > 0
            ? tr.t("summary.person.claimsShare", {
                ...common,
                share: pct((100 * p.busyGpuHours) / p.claimedGpuHours),
              })
            : tr.t("summary.person.claims", common);
      const acts = [
        p.stops > 0 ? tr.t("summary.person.stops", { count: p.stops, saved: money(p.savedCost) }) : null,
        p.keeps > 0 ? tr.t("summary.person.keeps", { count: p.keeps }) : null,
      ].filter((part) => part !== null);
      return `• ${
        acts.length > 0
          ? tr.t("summary.person.lineActs", { person: person(p.user), claims, acts: acts.join(", ") })
          : tr.t("summary.person.line", { person: person(p.user), claims })
      }`;
    });
    blocks.push(
      section(
        `${heading(tr.t("summary.people.title"), tr.t("summary.people.columns"))}\n${rows(personLines, maxRows, more)}`,
      ),
    );
  }

  const actionLines = model.stops.map(
    (s) =>
      `• ${tr.t(s.forced ? "summary.stop.lineForced" : "summary.stop.line", {
        host: escapeMrkdwn(s.host),
        person: person(s.actor),
        at: when(s.atMs),
        next:
          s.nextUseMs === null
            ? tr.t("summary.stop.notUsed")
            : tr.t("summary.stop.nextUsed", { at: when(s.nextUseMs) }),
        hours: hours(s.offHours),
        saved: moneyOrUnknown(s.savedCost),
      })}`,
  );
  const keptHours = model.keeps.reduce((sum, k) => sum + k.keptHours, 0);
  const keepLine =
    model.keeps.length === 0
      ? tr.t("summary.keeps.none")
      : tr.t("summary.keeps.some", { count: model.keeps.length, hours: hours(keptHours) });
  blocks.push(
    section(
      `*${tr.t("summary.stops.title")}*\n${actionLines.length === 0 ? tr.t("summary.stops.none") : rows(actionLines, maxRows, more)}\n${keepLine}`,
    ),
  );

  blocks.push(
    section(
      `${heading(tr.t("summary.containers.title"), tr.t("summary.containers.columns"))}\n${containerText(tr, model, maxRows, more)}`,
    ),
  );

  const reclaimLines = model.reclaim.map(
    (r) =>
      `• ${
        r.state === "pending"
          ? tr.t("summary.reclaim.pending", {
              host: escapeMrkdwn(r.host),
              since: date(r.sinceMs),
              mean: pct(r.windowMeanPct),
              due: date(r.untilMs),
            })
          : tr.t("summary.reclaim.due", { host: escapeMrkdwn(r.host), since: date(r.untilMs) })
      }`,
  );
  const renewLines = model.doNotRenew.map(
    (f) =>
      `• ${tr.t("summary.renew.line", {
        host: escapeMrkdwn(f.host),
        current: pct(f.currentUtilPct),
        previous: pct(f.previousUtilPct),
      })}`,
  );
  blocks.push(
    section(
      `*${tr.t("summary.reclaim.title")}*\n${reclaimLines.length === 0 ? tr.t("summary.reclaim.none") : rows(reclaimLines, maxRows, more, SHORT_BUDGET)}\n` +
        `${heading(tr.t("summary.renew.title"), tr.t("summary.renew.columns", { pct: pct(model.renewalBelowPct) }))}\n` +
        `${renewLines.length === 0 ? tr.t("summary.renew.none") : rows(renewLines, maxRows, more, SHORT_BUDGET)}`,
    ),
  );

  const suspect = model.suspect ?? [];
  if (suspect.length > 0) {
    const spans = suspect.slice(0, 5).map((span) =>
      tr.t(span.ongoing ? "summary.suspect.spanOngoing" : "summary.suspect.span", {
        host: escapeMrkdwn(span.host),
        gpu: slotLabel(span.gpu),
        hours: hours(span.hours),
      }),
    );
    if (suspect.length > 5) spans.push(tr.t("summary.suspect.more", { count: suspect.length - 5 }));
    blocks.push(context(tr.t("summary.suspect", { spans: spans.join(", ") })));
  }

  blocks.push(context(tr.t(options.filesAttached ? "summary.files.attached" : "summary.files.missing")));

  const text = tr.t("summary.text", {
    period,
    util: pct(fleet.utilMeanPct),
    hours: hours(fleet.idleGpuHours),
    cost: money(fleet.idleCost),
  });
  return { text, blocks: blocks.slice(0, LIMITS.blocksPerMessage) };
}

/** `all 14 days; readings for 94 % of GPU time, 232 h without (never counted as idle)`. */
function coverageText(tr: Translator, model: SummaryModel, when: (ms: number) => string): string {
  const { period, coverage, fleet } = model;
  const periodDays = Math.round((period.toMs - period.fromMs) / DAY_MS);
  // NOTE: the last hour before the slot is rolled up a few minutes after it: not worth a mention.
  const coveredDays = (coverage.untilMs - coverage.fromMs) / DAY_MS;
  const span =
    coveredDays >= periodDays - 1.5 / 24
      ? tr.t("summary.coverage.all", { days: periodDays })
      : tr.t("summary.coverage.part", {
          covered: tr.number(coveredDays, 1),
          days: periodDays,
          from: when(coverage.fromMs),
          to: when(coverage.untilMs),
        });
  if (coverage.readShare === null) return tr.t("summary.coverage.noGpu", { span });
  return tr.t("summary.coverage.readings", {
    span,
    share: formatPct(100 * coverage.readShare),
    unknown: hoursIn(tr, fleet.unknownGpuHours),
  });
}

/**
 * The line that says a summary was posted late: it was due at `dueMs`, and either the bot was down
 * then (`bot-down`, known when it is queued) or Slack did not take it for a while (`slack`, added by
 * the outbox when it is sent late).
 */
export function summaryLateNotice(
  tr: Translator,
  dueMs: number,
  why: "bot-down" | "slack",
): types.ContextBlock {
  const due = tr.t("summary.when", { at: dueMs });
  return context(
    `:hourglass: ${tr.t(why === "bot-down" ? "summary.late.botDown" : "summary.late.slack", { due })}`,
  );
}

function containerText(
  tr: Translator,
  model: SummaryModel,
  maxRows: number,
  more: (left: number) => string,
): string {
  const containers = model.containers;
  switch (containers.status) {
    case "off":
      return tr.t("summary.containers.off");
    case "failed":
      return tr.t("summary.containers.failed", { message: escapeMrkdwn(containers.message) });
    case "ok": {
      const flagged = containers.advice.filter((a) => a.flagged);
      const head =
        containers.advice.length === 0
          ? tr.t("summary.containers.none")
          : tr.t("summary.containers.head", { count: containers.advice.length, flagged: flagged.length });
      const lines = flagged.map((advice) => adviceLine(tr, advice));
      return flagged.length === 0 ? head : `${head}\n${rows(lines, maxRows, more)}`;
    }
    default:
      return containers satisfies never;
  }
}

/** `• ml/trainer/main: CPU peak 1.2 of 8 cores (15 %) → request 1.44; GPU memory max 9.8 GiB of 80 GiB → 13 GiB`. */
export function adviceLine(tr: Translator, advice: RightsizingAdvice): string {
  const parts: string[] = [];
  const { usage, cpu, gpuMem } = advice;
  if (cpu !== null && usage.cpuRequestCores !== null && usage.cpuPeakCores !== null) {
    const facts = {
      peak: cores(usage.cpuPeakCores),
      request: cores(usage.cpuRequestCores),
      pct: formatPct(100 * cpu.peakRatio),
    };
    parts.push(
      cpu.direction === "ok"
        ? tr.t("summary.advice.cpu", facts)
        : tr.t("summary.advice.cpuChange", { ...facts, recommended: cores(cpu.recommendedCores) }),
    );
  }
  if (gpuMem !== null && usage.gpuMemMaxMiB !== null && usage.gpuMemTotalMiB !== null) {
    const facts = {
      max: formatGiB(usage.gpuMemMaxMiB),
      total: formatGiB(usage.gpuMemTotalMiB),
      pct: formatPct(100 * gpuMem.maxRatio),
    };
    parts.push(
      gpuMem.direction === "lower"
        ? tr.t("summary.advice.gpuMemChange", { ...facts, recommended: formatGiB(gpuMem.recommendedMiB) })
        : tr.t("summary.advice.gpuMem", facts),
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
