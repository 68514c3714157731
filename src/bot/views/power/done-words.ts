import type { Translator } from "../../../messages/translator.ts";
import type { DoneWithMineBegun } from "../../../usecases/power/done-with-mine.ts";
import type { DoneNote, StillOnIt } from "../../../usecases/power/stop-facts.ts";
import { code, mention } from "../alerts/alert-format.ts";

/** A *Done with mine* in the alert's thread: who is done, who the host still waits for. */
export function doneNoteWords(tr: Translator, note: DoneNote): string {
  const { host, others } = note;
  const user = mention(note.user);
  return others.unknownProcesses
    ? tr.t("stop.done.unknownNote", { user, host })
    : tr.t("stop.done.note", { user, host, others: namesOf(tr, others) });
}

/** The answer to the person who pressed *Done with mine*, when it stopped nothing. */
export function doneReplyWords(
  tr: Translator,
  result: Extract<DoneWithMineBegun, { kind: "noted" | "done-refused" }>,
): string {
  const { host } = result;
  if (result.kind === "done-refused") {
    return tr.t(result.reason === "no-alert" ? "stop.done.noAlert" : "stop.done.nothingOfYours", { host });
  }
  return result.others.unknownProcesses
    ? tr.t("stop.done.unknownNoted", { host })
    : tr.t("stop.done.noted", { host, others: namesOf(tr, result.others) });
}

function namesOf(tr: Translator, others: StillOnIt): string {
  return tr.list([
    ...others.people.map(mention),
    ...others.logins.map((login) => tr.t("stop.done.login", { login: code(login) })),
  ]);
}
