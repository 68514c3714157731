import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { summaryChartData } from "../../../reports/summary-chart-data.ts";
import type { SummaryModel } from "../../../reports/summary-model.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import type { SummaryMessageOptions } from "../../../usecases/ledger/summary-words.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { context, LIMITS, type Reply, section } from "../reply-message.ts";
import { summaryContainersText } from "./summary-containers-text.ts";
import { summaryHeadline } from "./summary-headline.ts";
import { summaryHostsText } from "./summary-hosts-text.ts";
import { type SummaryMessageFormat, summaryMessageFormat } from "./summary-message-format.ts";
import { summaryPeopleText } from "./summary-people-text.ts";
import { summaryReclaimText } from "./summary-reclaim-text.ts";
import { summaryStopsText } from "./summary-stops-text.ts";

export type { SummaryMessageOptions };

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
  const f = summaryMessageFormat(tr, model, options);
  const { fleet } = model;
  const blocks: types.KnownBlock[] = [];
  blocks.push(
    section(`*${tr.t("summary.title", { team: escapeMrkdwn(options.teamName), period: f.period })}*`),
  );
  if (options.lateSinceMs !== null) blocks.push(summaryLateNotice(tr, options.lateSinceMs, "bot-down"));
  blocks.push(summaryHeadline(f, model));
  blocks.push({ type: "divider" });
  blocks.push(section(summaryHostsText(f, model)));
  if (model.people.length > 0) blocks.push(section(summaryPeopleText(f, model)));
  blocks.push(section(summaryStopsText(f, model)));
  blocks.push(
    section(
      `${f.heading(tr.t("summary.containers.title"), tr.t("summary.containers.columns"))}\n${summaryContainersText(tr, model, f.maxRows, f.more)}`,
    ),
  );
  blocks.push(section(summaryReclaimText(f, model)));
  const suspect = suspectText(f, model);
  if (suspect !== undefined) blocks.push(context(suspect));
  blocks.push(context(tr.t(filesKey(model, options.filesAttached))));
  const text = tr.t("summary.text", {
    period: f.period,
    util: f.pct(fleet.utilMeanPct),
    hours: f.hours(fleet.idleGpuHours),
    cost: f.money(fleet.idleCost),
  });
  return { text, blocks: blocks.slice(0, LIMITS.blocksPerMessage) };
}

/** The GPUs whose readings looked wrong (at most five named), or `undefined` when none did. */
function suspectText(f: SummaryMessageFormat, model: SummaryModel): string | undefined {
  const { tr } = f;
  const suspect = model.suspect ?? [];
  if (suspect.length === 0) return undefined;
  const spans = suspect.slice(0, 5).map((span) =>
    tr.t(span.ongoing ? "summary.suspect.spanOngoing" : "summary.suspect.span", {
      host: escapeMrkdwn(span.host),
      gpu: slotLabel(span.gpu),
      hours: f.hours(span.hours),
    }),
  );
  if (suspect.length > 5) spans.push(tr.t("summary.suspect.more", { count: suspect.length - 5 }));
  return tr.t("summary.suspect", { spans: spans.join(", ") });
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

/** What the files note says: the chart's unit (idle GPU-hours when no host has a price), or how to get the files. */
function filesKey(
  model: SummaryModel,
  attached: boolean,
): "summary.files.missing" | "summary.files.attached" | "summary.files.attachedHours" {
  if (!attached) return "summary.files.missing";
  return summaryChartData(model).unit === "cost" ? "summary.files.attached" : "summary.files.attachedHours";
}
