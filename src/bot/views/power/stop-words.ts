import type { Translator } from "../../../messages/translator.ts";
import { slackEscape } from "../../../usecases/power/action-text.ts";
import type { StepEnd, StepRun, StopNote } from "../../../usecases/power/stop-facts.ts";
import type { StopResult } from "../../../usecases/power/stop-host.ts";
import { mention } from "../alerts/alert-format.ts";
import { hostNowWords } from "../alerts/host-now-words.ts";
import { stopRefusalWords } from "./stop-refusal.ts";

const THREAD_TAIL_CHARS = 800;

/** How a stop ended, for the person who asked: why it was refused, or what its thread was told. */
export function stopResultWords(tr: Translator, result: StopResult): string {
  return result.kind === "refused" ? stopRefusalWords(tr, result) : stopNoteWords(tr, result.note);
}

/** What a stop tells the alert's thread (in the channel's words) or the person who asked (in theirs). */
export function stopNoteWords(tr: Translator, note: StopNote): string {
  const steps = (list: readonly string[]) =>
    list
      .map((step) => `\`${slackEscape(step)}\``)
      .reduce((first, second) => tr.t("stop.preview.then", { first, second }));
  switch (note.kind) {
    case "stop-running": {
      const args = { host: note.host, steps: steps(note.steps) };
      if (note.actor === null) return tr.t("stop.thread.runningAuto", args);
      const user = mention(note.actor);
      return note.overrode === null
        ? tr.t("stop.thread.running", { ...args, user })
        : tr.t("stop.thread.runningForced", {
            ...args,
            user,
            overrode: hostNowWords(tr, note.host, note.overrode),
          });
    }
    case "stop-cancelled":
      return tr.t("stop.thread.cancelledAuto", {
        host: note.host,
        refusal: stopRefusalWords(tr, { host: note.host, facts: note.refusal }),
      });
    case "stopped": {
      const args = { host: note.host, ...stepArgs(tr, note.step) };
      const sentence =
        note.actor === null
          ? tr.t("stop.thread.stoppedAuto", args)
          : tr.t(note.forced ? "stop.thread.stoppedForced" : "stop.thread.stopped", {
              ...args,
              user: mention(note.actor),
            });
      return sentence + tailBlock(note.step);
    }
    case "stop-failed": {
      const args = { host: note.host, ...stepArgs(tr, note.step) };
      const id = note.stage === "pre_stop" ? "stop.thread.preStopFailed" : "stop.thread.failed";
      return tr.t(id, args) + tailBlock(note.step);
    }
    case "stop-dry-run":
      return tr.t(note.forced ? "stop.thread.dryRunForced" : "stop.thread.dryRun", {
        host: note.host,
        steps: steps(note.steps),
        user: mention(note.actor),
      });
    case "stop-interrupted": {
      const recheck = tr.t(note.answering ? "stop.thread.recheckAnswering" : "stop.thread.recheckSilent", {
        host: note.host,
      });
      return note.actor === null
        ? tr.t("stop.thread.interruptedAuto", { host: note.host, recheck })
        : tr.t("stop.thread.interrupted", { host: note.host, recheck, user: mention(note.actor) });
    }
    default:
      return note satisfies never;
  }
}

/** A step and how it ended, as the `{step}` and `{end}` arguments of a thread note. */
export function stepArgs(tr: Translator, step: StepRun): { step: string; end: string } {
  return { step: `\`${slackEscape(step.description)}\``, end: stepEndWords(tr, step.end) };
}

/** `exited 0`, `answered HTTP 202`, `was killed after 5 s (timeout)`, `could not run`. */
function stepEndWords(tr: Translator, end: StepEnd): string {
  switch (end.kind) {
    case "killed":
      return tr.t("stop.end.killed", { seconds: end.seconds });
    case "no-answer":
      return tr.t("stop.end.noAnswer", { seconds: end.seconds });
    case "not-run":
      return tr.t("stop.end.notRun");
    case "exited":
      return tr.t("stop.end.exited", { code: end.code });
    case "http":
      return tr.t("stop.end.http", { status: end.status });
    default:
      return end satisfies never;
  }
}

/** The step's output tail as a code block (empty when it printed nothing). */
export function tailBlock(step: StepRun): string {
  if (step.tail === "") return "";
  const cut = step.tail.length > THREAD_TAIL_CHARS ? `…${step.tail.slice(-THREAD_TAIL_CHARS)}` : step.tail;
  return `\n\`\`\`\n${slackEscape(cut)}\n\`\`\``;
}
