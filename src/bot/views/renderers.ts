import type { AlertWords } from "../../usecases/alert-words.ts";
import type { ClaimWords } from "../../usecases/claim-words.ts";
import type { ReclaimWords } from "../../usecases/reclaim-words.ts";
import type { SummaryWords } from "../../usecases/summary-words.ts";
import type { WardenWords } from "../../usecases/warden-words.ts";
import type { Readers } from "../readers.ts";
import { alertDirectMessage } from "./alert-direct-message.ts";
import { alertEscalationText } from "./alert-escalation.ts";
import { idleAlertMessage } from "./alert-message.ts";
import { noDataMessage } from "./alert-no-data.ts";
import { resolvedAlertMessage } from "./alert-resolved.ts";
import { claimEndedDm, claimFreeDm, claimNudgeDm, claimReminderDm } from "./claim-dm.ts";
import { withGrantDevices } from "./grant-devices-words.ts";
import { withHomeQueue } from "./home-queue.ts";
import { homeView } from "./home-view.ts";
import { queueGrantDm, queueLapsedDm } from "./queue-messages.ts";
import {
  reclaimClearedMessage,
  reclaimDecidedMessage,
  reclaimDecisionMessage,
  reclaimPendingMessage,
  renewalMessage,
} from "./reclaim-messages.ts";
import { stopDoubtDirectText, stopDoubtThreadText } from "./stop-doubt.ts";
import { renderSummaryMessage, summaryLateNotice } from "./summary-message.ts";
import { suspectReadingMessage } from "./suspect-reading-message.ts";
import { wardenAnnouncement, wardenChangeAnnouncement, wardenChecklistMessage } from "./warden-messages.ts";

/** The bot's implementations of the use-cases' word ports, one object per port. */
export interface BotWords {
  alertWords: AlertWords;
  summaryWords: SummaryWords;
  reclaimWords: ReclaimWords;
  wardenWords: WardenWords;
  claimWords: ClaimWords;
}

/**
 * The word ports built from the views for `readers`: channel posts in the channel's language, what one
 * person reads in theirs. The composition roots (main, the simulation, the benchmarks, the test rigs)
 * build them once and pass them in.
 */
export function botWords(readers: Readers): BotWords {
  /** The alert use-cases' messages (idle alerts, no-data notices, suspect readings, stop doubts). */
  const alertWords: AlertWords = {
    idle: idleAlertMessage,
    direct: alertDirectMessage,
    escalation: alertEscalationText,
    noData: noDataMessage,
    resolved: resolvedAlertMessage,
    suspectReading: suspectReadingMessage,
    stopDoubtThread: stopDoubtThreadText,
    stopDoubtDirect: stopDoubtDirectText,
  };

  /** The biweekly summary's messages. */
  const summaryWords: SummaryWords = {
    summary: renderSummaryMessage,
    lateNotice: summaryLateNotice,
    renewal: renewalMessage,
  };

  /** The reclaim review's and decisions' messages. */
  const reclaimWords: ReclaimWords = {
    pending: reclaimPendingMessage,
    cleared: reclaimClearedMessage,
    decision: reclaimDecisionMessage,
    decided: reclaimDecidedMessage,
  };

  /** The cost warden announcements. */
  const wardenWords: WardenWords = {
    announcement: wardenAnnouncement,
    checklist: wardenChecklistMessage,
    change: wardenChangeAnnouncement,
  };

  /** The claim DMs and the App Home. */
  const claimWords: ClaimWords = {
    reminder: claimReminderDm,
    nudge: claimNudgeDm,
    ended: claimEndedDm,
    free: claimFreeDm,
    queueGrant: (request, claims, confirmByMs, at, devices = []) =>
      withGrantDevices(readers.person(request.user), queueGrantDm(request, claims, confirmByMs, at), devices),
    queueLapsed: queueLapsedDm,
    home: (model, slashCommand) =>
      withHomeQueue(readers.person(model.user), homeView(model, slashCommand), model),
  };

  return { alertWords, summaryWords, reclaimWords, wardenWords, claimWords };
}
