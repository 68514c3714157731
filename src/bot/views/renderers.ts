import { renderHeatmap } from "../../reports/heatmap-chart.ts";
import { renderSummaryChart } from "../../reports/summary-chart.ts";
import { summaryCsvFiles } from "../../reports/summary-csv.ts";
import { GPU_COMMAND } from "../../shared/gpu-command.ts";
import type { AlertWords } from "../../usecases/alerts/alert-words.ts";
import type { StormWords } from "../../usecases/alerts/storm-words.ts";
import type { ClaimWords } from "../../usecases/claims/claim-words.ts";
import type { SummaryWords } from "../../usecases/ledger/summary-words.ts";
import type { ReclaimWords } from "../../usecases/warden/reclaim-words.ts";
import type { WardenWords } from "../../usecases/warden/warden-words.ts";
import type { Readers } from "../readers.ts";
import { alertDirectMessage } from "./alerts/alert-direct-message.ts";
import { alertEscalationText } from "./alerts/alert-escalation.ts";
import { idleAlertMessage } from "./alerts/alert-message.ts";
import { noDataMessage } from "./alerts/alert-no-data.ts";
import { alertNoteText } from "./alerts/alert-note.ts";
import { resolvedAlertMessage } from "./alerts/alert-resolved.ts";
import { stormDigestMessage, stormOwnerMessage } from "./alerts/storm-digest-message.ts";
import { suspectReadingMessage } from "./alerts/suspect-reading-message.ts";
import {
  claimEndedDm,
  claimedInThreadText,
  claimFreeDm,
  claimNudgeDm,
  claimReminderDm,
} from "./claims/claim-dm.ts";
import { withGrantDevices } from "./claims/grant-devices-words.ts";
import { monthlyAllocationMessage } from "./ledger/monthly-allocation.ts";
import { projectSummaryBlocks } from "./ledger/report-project.ts";
import { renderSummaryMessage, summaryLateNotice } from "./ledger/summary-message.ts";
import {
  autopilotKeepEndedText,
  autopilotStoppingText,
  autopilotWarningMessage,
} from "./power/autopilot-messages.ts";
import { stopDoubtThreadText } from "./power/stop-doubt.ts";
import { planSummaryBlocks } from "./procurement/plan-summary.ts";
import { withHomeQueue } from "./queue/home-queue.ts";
import { withHomeReservations } from "./queue/home-reservations.ts";
import {
  preemptAskDm,
  preemptReleasedDm,
  preemptVoidDm,
  preemptWaitingDm,
} from "./queue/preempt-messages.ts";
import { queueGrantDm, queueLapsedDm } from "./queue/queue-messages.ts";
import { withAlertReservation } from "./queue/reservation-lines.ts";
import { homeView } from "./status/home-view.ts";
import {
  reclaimClearedMessage,
  reclaimDecisionMessage,
  reclaimDecisionPost,
  reclaimLentDm,
  reclaimPendingMessage,
  renewalMessage,
} from "./warden/reclaim-messages.ts";
import {
  wardenAnnouncement,
  wardenChangeAnnouncement,
  wardenChecklistMessage,
} from "./warden/warden-messages.ts";

/** The bot's implementations of the use-cases' word ports, one object per port. */
export interface BotWords {
  alertWords: AlertWords;
  summaryWords: SummaryWords;
  reclaimWords: ReclaimWords;
  wardenWords: WardenWords;
  claimWords: ClaimWords;
  stormWords: StormWords;
}

/**
 * The word ports built from the views for `readers`: channel posts in the channel's language, what one
 * person reads in theirs. The composition roots (main, the simulation, the benchmarks, the test rigs)
 * build them once and pass them in.
 */
export function botWords(readers: Readers): BotWords {
  /** The warden reads a DM in their language; without a warden it goes to the channel. */
  const forWarden = (warden: string | null) => (warden === null ? readers.channel : readers.person(warden));

  /** The alert use-cases' messages (idle alerts, no-data notices, suspect readings, stop doubts). */
  const alertWords: AlertWords = {
    idle: (view) => withAlertReservation(readers.channel, idleAlertMessage(readers.channel, view), view),
    direct: (view) => alertDirectMessage(readers.person(view.reader), view),
    escalation: (view) => alertEscalationText(readers.channel, view),
    noData: (view) => noDataMessage(readers.channel, view),
    resolved: (view) => resolvedAlertMessage(readers.channel, view),
    suspectReading: (view) => suspectReadingMessage(readers.person(view.reader), view),
    stopDoubtThread: (view) => stopDoubtThreadText(readers.channel, view),
    note: (note) => alertNoteText(readers.channel, note),
    noteTo: (reader, note) => alertNoteText(readers.person(reader), note),
    autopilotWarning: (view) => autopilotWarningMessage(readers.person(view.reader), view),
    autopilotStopping: (view) => autopilotStoppingText(readers.channel, view),
    autopilotKeepEnded: (view) => autopilotKeepEndedText(readers.person(view.reader), view),
  };

  /** The biweekly summary's messages. */
  const summaryWords: SummaryWords = {
    summary: (model, options) => renderSummaryMessage(readers.channel, model, options),
    projects: (report) => projectSummaryBlocks(readers.channel, report),
    plans: (flagged) => planSummaryBlocks(readers.channel, flagged),
    chart: (model, options) => renderSummaryChart(model, { ...options, language: readers.channel.language }),
    heatmap: (input, options) => renderHeatmap(input, { ...options, language: readers.channel.language }),
    csv: (model, stem) => summaryCsvFiles(readers.channel, model, stem),
    lateNotice: (dueMs, why) => summaryLateNotice(readers.channel, dueMs, why),
    renewal: (flags, belowPct, warden) => renewalMessage(forWarden(warden), flags, belowPct, warden),
  };

  /** The reclaim review's and decisions' messages. */
  const reclaimWords: ReclaimWords = {
    pending: (entry, ctx) => reclaimPendingMessage(forWarden(ctx.warden), entry, ctx),
    cleared: (entry, dayStartMs, dayMeanPct, ctx) =>
      reclaimClearedMessage(forWarden(ctx.warden), entry, dayStartMs, dayMeanPct, ctx),
    decision: (entry, ctx) => reclaimDecisionMessage(forWarden(ctx.warden), entry, ctx),
    decisionPost: (entry) => reclaimDecisionPost(readers.channel, entry),
    lentDm: (facts) => reclaimLentDm(readers.person(facts.owner), facts),
  };

  /** The cost warden announcements. */
  const wardenWords: WardenWords = {
    announcement: (facts) => wardenAnnouncement(readers.channel, facts),
    checklist: (checklist) => wardenChecklistMessage(readers.person(checklist.warden), checklist),
    change: (change, actor) => wardenChangeAnnouncement(readers.channel, change, actor),
    allocation: (report) => monthlyAllocationMessage(readers.channel, report),
  };

  /** The claim DMs and the App Home, each in its reader's language; thread posts in the channel's. */
  const claimWords: ClaimWords = {
    reminder: (group, at) => claimReminderDm(readers.person(group.user), group, at),
    nudge: (group, idleFromMs, releaseAtMs, at) =>
      claimNudgeDm(readers.person(group.user), group, idleFromMs, releaseAtMs, at),
    ended: (group, ending, endedAtMs, at) =>
      claimEndedDm(readers.person(group.user), group, ending, endedAtMs, at),
    free: (user, host, gpus) => claimFreeDm(readers.person(user), host, gpus, GPU_COMMAND),
    queueGrant: (request, claims, confirmByMs, at, devices = []) => {
      const tr = readers.person(request.user);
      return withGrantDevices(tr, queueGrantDm(tr, request, claims, confirmByMs, at), devices);
    },
    queueLapsed: (request, released, at) =>
      queueLapsedDm(readers.person(request.user), request, released, at, GPU_COMMAND),
    home: (model, slashCommand) => {
      const tr = readers.person(model.user);
      return withHomeQueue(tr, withHomeReservations(tr, homeView(tr, model, slashCommand), model), model);
    },
    claimedInThread: (group, nowMs) => claimedInThreadText(readers.channel, group, nowMs),
    preemptAsk: (ask, at) => preemptAskDm(readers.person(ask.holder), ask, at),
    preemptWaiting: (request, asks, at) => preemptWaitingDm(readers.person(request.user), request, asks, at),
    preemptVoid: (request, kept, at) =>
      preemptVoidDm(readers.person(kept[0]?.user ?? request.user), kept, at),
    preemptReleased: (request, released, at) =>
      preemptReleasedDm(readers.person(released[0]?.user ?? request.user), request, released, at),
  };

  /** A storm digest (the channel) and its owner DMs. */
  const stormWords: StormWords = {
    digest: (view) => stormDigestMessage(readers.channel, view),
    ownerDm: (view) => stormOwnerMessage(readers.person(view.reader), view),
  };

  return { alertWords, summaryWords, reclaimWords, wardenWords, claimWords, stormWords };
}
