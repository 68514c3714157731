import type { Translator } from "../../../messages/translator.ts";
import type { AlertNote } from "../../../usecases/alerts/alert-words.ts";
import { slackEscape } from "../../../usecases/power/action-text.ts";
import type { StartNote } from "../../../usecases/power/start-facts.ts";
import { mention } from "../alerts/alert-format.ts";
import { whenWords } from "../when-words.ts";
import { stepArgs, tailBlock } from "./stop-words.ts";

const START_KINDS: ReadonlySet<string> = new Set<StartNote["kind"]>([
  "start-running",
  "started",
  "start-failed",
  "start-up",
  "start-unconfirmed",
  "start-dry-run",
]);

export function isStartNote(note: AlertNote): note is StartNote {
  return START_KINDS.has(note.kind);
}

/** What a start tells the alert's thread (in the channel's words) or the people waiting (in theirs). */
export function startNoteWords(tr: Translator, note: StartNote): string {
  const host = note.host;
  switch (note.kind) {
    case "start-running": {
      const steps = note.steps.map((step) => `\`${slackEscape(step)}\``).join(", ");
      if (note.actor !== null && note.trigger !== "claim" && note.trigger !== "grant") {
        return tr.t("start.thread.running", { host, steps, user: mention(note.actor) });
      }
      const user = note.user === null ? tr.t("start.someone") : mention(note.user);
      return tr.t("start.thread.runningFor", { host, steps, user, trigger: note.trigger });
    }
    case "started":
      return tr.t("start.thread.started", { host, ...stepArgs(tr, note.step), grace: note.graceMinutes });
    case "start-failed":
      return tr.t("start.thread.failed", { host, ...stepArgs(tr, note.step) }) + tailBlock(note.step);
    case "start-up":
      return tr.t("start.thread.up", { host, at: whenWords(tr, note.startedAtMs, note.nowMs) });
    case "start-unconfirmed":
      return tr.t("start.thread.unconfirmed", {
        host,
        at: whenWords(tr, note.startedAtMs, note.nowMs),
        grace: note.graceMinutes,
      });
    case "start-dry-run":
      return tr.t("start.thread.dryRun", {
        host,
        steps: note.steps.map((step) => `\`${slackEscape(step)}\``).join(", "),
        user: mention(note.actor),
      });
    default:
      return note satisfies never;
  }
}
