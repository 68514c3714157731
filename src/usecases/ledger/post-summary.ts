import { projectsOnHost } from "../../checks/host-projects.ts";
import { localDayOf } from "../../checks/local-day.ts";
import type { RenewalFlag } from "../../checks/renewal.ts";
import type { HeatmapChart } from "../../reports/heatmap-chart.ts";
import type { SummaryChart } from "../../reports/summary-chart.ts";
import type { CsvFile } from "../../reports/summary-csv.ts";
import type { SummaryModel } from "../../reports/summary-model.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import { dayjs } from "../../shared/time.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import {
  ifLate,
  type Notifier,
  type PeopleDirectory,
  type RenderedReply,
  type WardenLookup,
} from "../ports.ts";
import { readTrackedPlans, type TrackPlansDeps } from "../procurement/track-plans.ts";
import { buildSummary, nextTurn, type SummaryDeps, summaryPeriod } from "./build-summary.ts";
import { type ProjectReportDeps, readProjectAllocation } from "./project-report.ts";
import { readHeatmap } from "./read-heatmap.ts";
import type { SummaryWords } from "./summary-words.ts";

/** A summary posted within this long of its slot is on time (the last hour's rollup lands after it). */
export const SUMMARY_ON_TIME_MS = 30 * MINUTE_MS;

/** One due slot of the summary job (the job runner's `JobSlot`). */
export interface SummarySlot {
  atMs: number;
  late: boolean;
  /** Applies `effect` and records the slot as done in one transaction; false when it already was. */
  commit(effect: () => void): boolean;
}

export interface PostSummaryDeps extends SummaryDeps {
  /** The stored GPUs, and the hourly rollups the hour-of-week heatmap is drawn from. */
  metrics: Pick<MetricsStore, "hosts" | "rollupsBetween" | "rollupHours">;
  notifier: Notifier;
  warden: WardenLookup;
  /** Names people in the summary without notifying them; without it they show as member IDs. */
  people?: PeopleDirectory | undefined;
  /** The summary's words (the bot's views: `summaryWords`). */
  summaryWords: SummaryWords;
  /** What the per-project section is read from; absent (or no `projects:`): no section. */
  projectReport?: ProjectReportDeps;
  /** The approved requests for GPUs, followed month by month; absent: no plans section. */
  procurement?: TrackPlansDeps;
}

export interface PostedSummary {
  model: SummaryModel;
  message: RenderedReply;
  chart: SummaryChart;
  /** The hour-of-week heatmap per host, the second file. */
  heatmap: HeatmapChart;
  csv: CsvFile[];
  /** `false`: another run had already posted this slot; nothing was queued. */
  posted: boolean;
  /** The do-not-renew hosts the warden was told about (first time flagged for this slot). */
  renewalFlagged: string[];
}

/**
 * The biweekly summary for one slot: builds the model of the 14 days before it, renders the message,
 * the chart (PNG) and the CSVs, and queues them as one `files.uploadV2` to the team channel (the
 * blocks with the files attached) — in the transaction that marks the slot done, so it is queued
 * exactly once. With a channel name instead of an ID the files cannot be shared (Slack wants an
 * ID): the message goes alone by `chat.postMessage` and says so. New do-not-renew flags go to the
 * cost warden as a DM in the same transaction. Last, the period's per-GPU sums are kept for the next
 * summary's trend (read again, between event-loop turns, after the post is queued).
 */
export async function postSummary(deps: PostSummaryDeps, slot: SummarySlot): Promise<PostedSummary> {
  const { config } = deps;
  const zone = config.team.timezone;
  const model = await buildSummary(deps, summaryPeriod(slot.atMs, zone));
  const stem = `gpu-summary-${dayjs(slot.atMs).tz(zone).format("YYYY-MM-DD")}`;
  const channel = config.slack.channel;
  const filesAttached = isChannelId(channel);
  const named = [...model.people.map((p) => p.user), ...model.stops.map((s) => s.actor)].filter((id) =>
    /^[UW][A-Z0-9]{2,}$/.test(id),
  );
  const summary = deps.summaryWords.summary(model, {
    teamName: config.team.name,
    names: (await deps.people?.names(named)) ?? new Map(),
    lateSinceMs: slot.late ? slot.atMs : null,
    filesAttached,
  });
  const section = [...projectBlocks(deps, model), ...planBlocks(deps)];
  const fits = (summary.blocks?.length ?? 0) + section.length <= 50;
  const message = fits ? { ...summary, blocks: [...(summary.blocks ?? []), ...section] } : summary;
  const chart = deps.summaryWords.chart(model, { logger: deps.logger });
  const heatmap = deps.summaryWords.heatmap(readHeatmap(deps, slot.atMs), { logger: deps.logger });
  const csv = deps.summaryWords.csv(model, stem);
  // NOTE: queued on time, it may still reach Slack late (an outage): the outbox then says so.
  const late = slot.late
    ? {}
    : { $ifLate: ifLate(SUMMARY_ON_TIME_MS, [deps.summaryWords.lateNotice(slot.atMs, "slack")]) };
  const renewalFlagged: string[] = [];
  const posted = slot.commit(() => {
    if (filesAttached) {
      deps.notifier.send("files.uploadV2", {
        channel_id: channel,
        blocks: message.blocks,
        ...late,
        file_uploads: [
          {
            file: chart.png,
            filename: `${stem}.png`,
            title: chart.title,
            alt_text: chart.altText,
          },
          {
            file: heatmap.png,
            filename: `${stem}-hours.png`,
            title: heatmap.title,
            alt_text: heatmap.altText,
          },
          ...csv.map((file) => ({ content: file.content, filename: file.filename, title: file.title })),
        ],
      });
    } else {
      deps.notifier.send("chat.postMessage", {
        channel,
        text: message.text,
        blocks: message.blocks,
        ...late,
      });
    }
    const fresh: RenewalFlag[] = model.doNotRenew.filter((flag) =>
      deps.summaries.flagRenewal({
        host: flag.host,
        slotMs: slot.atMs,
        utilPct: flag.currentUtilPct,
        previousUtilPct: flag.previousUtilPct,
      }),
    );
    const warden = deps.warden.current(slot.atMs);
    if (fresh.length > 0 && warden !== null) {
      const gpusOf = (host: string) => deps.metrics.hosts().find((r) => r.name === host)?.gpus.length ?? 0;
      const { toMs } = model.period;
      const fromMs = toMs - 30 * 24 * 3_600_000;
      const held = deps.claims.overlapping(fromMs, toMs);
      const named = fresh.map((flag) => ({
        ...flag,
        usedBy: projectsOnHost(held, flag.host, fromMs, toMs, gpusOf(flag.host)),
      }));
      const dm = deps.summaryWords.renewal(named, model.renewalBelowPct, warden);
      deps.notifier.send("chat.postMessage", { channel: warden, text: dm.text, blocks: dm.blocks });
    }
    renewalFlagged.push(...fresh.map((flag) => flag.host));
  });
  if (posted)
    deps.logger.info({ slotMs: slot.atMs, late: slot.late, filesAttached }, "biweekly summary queued");
  await keepTrendTotals(deps, model);
  return { model, message, chart, heatmap, csv, posted, renewalFlagged };
}

/** Keeps the period's per-GPU sums for the next summary's trend; failing, that summary reads the packs. */
async function keepTrendTotals(deps: PostSummaryDeps, model: SummaryModel): Promise<void> {
  try {
    await deps.summaries.keepTotals(model.period.fromMs, model.period.toMs, nextTurn);
  } catch (error) {
    deps.logger.warn({ err: error }, "summary: the period's sums were not kept for the next trend");
  }
}

/** `C0123ABCD`, `G…` (private), `D…` (a DM): what `files.completeUploadExternal` takes as `channel_id`. */
export function isChannelId(channel: string): boolean {
  return /^[CGD][A-Z0-9]{2,}$/.test(channel);
}

/** The per-project section of the period's complete days, when projects are configured. */
function projectBlocks(deps: PostSummaryDeps, model: SummaryModel): unknown[] {
  const words = deps.summaryWords.projects;
  const source = deps.projectReport;
  if (words === undefined || source === undefined || Object.keys(deps.config.projects).length === 0)
    return [];
  const zone = deps.config.team.timezone;
  const fromDay = localDayOf(model.period.fromMs, zone);
  const toDay = localDayOf(model.period.toMs - 1, zone);
  return words.call(deps.summaryWords, readProjectAllocation(source, fromDay, toDay));
}

/** The flagged tracked plans (below half their GPU-hours two months running); none: no section. */
function planBlocks(deps: PostSummaryDeps): unknown[] {
  const words = deps.summaryWords.plans;
  if (words === undefined || deps.procurement === undefined) return [];
  const flagged = readTrackedPlans(deps.procurement).filter((plan) => plan.tracking.flagged);
  return flagged.length === 0 ? [] : words.call(deps.summaryWords, flagged);
}
