import type { StopDoubtView } from "../../usecases/alert-words.ts";
import { actorText, escapeMrkdwn, formatWhen } from "./alert-format.ts";

export type { StopDoubtView };

/** For the stopped alert's thread. */
export function stopDoubtThreadText(view: StopDoubtView): string {
  const { host, nowMs, timezone } = view;
  const by = actorText(view.actor);
  const who = by === "automatically" ? "automatically" : `by ${by}`;
  return (
    `⚠️ ${escapeMrkdwn(host)} was stopped at ${formatWhen(view.stoppedAtMs, nowMs, timezone)} (${who}) but is still reporting ` +
    `(latest reading ${formatWhen(view.lastReportAtMs, nowMs, timezone)}): the stop may not have worked. ` +
    `Check the host; Stop can be tried again (\`/gpu stop ${escapeMrkdwn(host)}\`).`
  );
}

/** For the person who pressed Stop (or the owners, after an automatic stop). */
export function stopDoubtDirectText(view: StopDoubtView & { pressedByReader: boolean }): string {
  const { host, nowMs, timezone } = view;
  const stopped = formatWhen(view.stoppedAtMs, nowMs, timezone);
  const subject = view.pressedByReader
    ? `You stopped ${escapeMrkdwn(host)} at ${stopped}`
    : `${escapeMrkdwn(host)} was stopped at ${stopped}`;
  return (
    `⚠️ ${subject} but it is still reporting (latest reading ${formatWhen(view.lastReportAtMs, nowMs, timezone)}): ` +
    "the stop may not have worked. The alert's thread has the details."
  );
}

/** The line a later idle alert of the same host shows. */
export function stopDoubtAlertNote(
  view: Pick<StopDoubtView, "host" | "stoppedAtMs" | "nowMs" | "timezone"> & {
    alertOpenedAtMs: number | null;
    /** The earlier alert's permalink, when known. */
    link: string | null;
  },
): string {
  const { nowMs, timezone } = view;
  const thread =
    view.alertOpenedAtMs === null
      ? "the earlier alert"
      : `the alert of ${formatWhen(view.alertOpenedAtMs, nowMs, timezone)}`;
  const earlier =
    view.link !== null
      ? ` See <${view.link}|the thread of ${thread}>.`
      : view.alertOpenedAtMs === null
        ? ""
        : ` See the thread of ${thread}.`;
  return `⚠️ The stop at *${formatWhen(view.stoppedAtMs, nowMs, timezone)}* may not have worked: ${escapeMrkdwn(view.host)} kept reporting.${earlier}`;
}
