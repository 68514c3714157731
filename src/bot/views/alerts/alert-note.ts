import type { Translator } from "../../../messages/translator.ts";
import type { AlertNote } from "../../../usecases/alerts/alert-words.ts";
import { doneNoteWords } from "../power/done-words.ts";
import { isStartNote, startNoteWords } from "../power/start-words.ts";
import { stopNoteWords } from "../power/stop-words.ts";
import { whenWords } from "../when-words.ts";
import { mention } from "./alert-format.ts";

/** `gpu-a kept by @alice until tomorrow 09:00 (23 h).`, or a stop's progress, for the alert's thread. */
export function alertNoteText(tr: Translator, note: AlertNote): string {
  if (isStartNote(note)) return startNoteWords(tr, note);
  if (note.kind === "done-with-mine") return doneNoteWords(tr, note);
  if (note.kind !== "kept") return stopNoteWords(tr, note);
  const args = {
    host: note.host,
    user: mention(note.user),
    until: whenWords(tr, note.untilMs, note.nowMs),
    duration: tr.duration(note.untilMs - note.nowMs),
  };
  return note.capMs === null
    ? tr.t("keep.note", args)
    : tr.t("keep.noteCapped", { ...args, max: tr.duration(note.capMs) });
}
