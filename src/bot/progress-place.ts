import type { BotDeps } from "./bot-deps.ts";

/**
 * Where a host action's progress is posted, for the one short answer that points there: the thread
 * of the host's open (else latest) alert, linked once Slack has its ts and the workspace URL is
 * known, or the channel when the host never had an alert (see `AlertPort.postInThread`).
 */
export type ProgressPlace = { kind: "thread"; link: string | null } | { kind: "channel"; channel: string };

export function progressPlace(
  deps: Pick<BotDeps, "state" | "config" | "messageLink">,
  host: string,
): ProgressPlace {
  const alert = deps.state.alerts.openFor(host, "idle") ?? deps.state.alerts.latest(host);
  if (alert === null) return { kind: "channel", channel: deps.config.slack.channel };
  const channel = alert.channel ?? deps.config.slack.channel;
  return { kind: "thread", link: alert.ts === null ? null : deps.messageLink(channel, alert.ts) };
}
