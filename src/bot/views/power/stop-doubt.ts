import type { Translator } from "../../../messages/translator.ts";
import type { StopDoubtView } from "../../../usecases/alerts/alert-words.ts";
import { alertWhen, byWords, escapeMrkdwn, mention } from "../alerts/alert-format.ts";

export type { StopDoubtView };

/** For the stopped alert's thread, addressed to the owners after an automatic stop. */
export function stopDoubtThreadText(tr: Translator, view: StopDoubtView): string {
  const { nowMs } = view;
  const said = tr.t("alert.stopDoubt.thread", {
    host: escapeMrkdwn(view.host),
    stoppedAt: alertWhen(tr, view.stoppedAtMs, nowMs),
    by: byWords(tr, view.actor),
    lastAt: alertWhen(tr, view.lastReportAtMs, nowMs),
  });
  if (view.owners.length === 0) return said;
  return tr.t("alert.stopDoubt.toOwners", { owners: view.owners.map(mention).join(", "), said });
}

/** The line a later idle alert of the same host shows. */
export function stopDoubtAlertNote(
  tr: Translator,
  view: Pick<StopDoubtView, "host" | "stoppedAtMs" | "nowMs"> & {
    alertOpenedAtMs: number | null;
    /** The earlier alert's permalink, when known. */
    link: string | null;
  },
): string {
  const { nowMs } = view;
  const thread =
    view.alertOpenedAtMs === null
      ? tr.t("alert.stopDoubt.threadEarlier")
      : tr.t("alert.stopDoubt.threadOf", { at: alertWhen(tr, view.alertOpenedAtMs, nowMs) });
  const earlier =
    view.link !== null
      ? tr.t("alert.stopDoubt.see", { thread: `<${view.link}|${thread}>` })
      : view.alertOpenedAtMs === null
        ? ""
        : tr.t("alert.stopDoubt.see", { thread });
  return tr.t("alert.stopDoubt.note", {
    stoppedAt: alertWhen(tr, view.stoppedAtMs, nowMs),
    host: escapeMrkdwn(view.host),
    earlier,
  });
}
