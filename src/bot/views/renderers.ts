import type { AlertWords } from "../../usecases/alert-words.ts";
import type { SummaryWords } from "../../usecases/summary-words.ts";
import { alertDirectMessage } from "./alert-direct-message.ts";
import { alertEscalationText } from "./alert-escalation.ts";
import { idleAlertMessage } from "./alert-message.ts";
import { noDataMessage } from "./alert-no-data.ts";
import { resolvedAlertMessage } from "./alert-resolved.ts";
import { renewalMessage } from "./reclaim-messages.ts";
import { stopDoubtDirectText, stopDoubtThreadText } from "./stop-doubt.ts";
import { renderSummaryMessage, summaryLateNotice } from "./summary-message.ts";
import { suspectReadingMessage } from "./suspect-reading-message.ts";

/**
 * The bot's implementations of the use-cases' word ports, one object per port, built from the views.
 * The composition roots (main, the simulation, the benchmarks, the test rigs) pass them in.
 */

/** The alert use-cases' messages (idle alerts, no-data notices, suspect readings, stop doubts). */
export const alertWords: AlertWords = {
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
export const summaryWords: SummaryWords = {
  summary: renderSummaryMessage,
  lateNotice: summaryLateNotice,
  renewal: renewalMessage,
};
