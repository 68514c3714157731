import type { types } from "@slack/bolt";
import { escapeMrkdwn, formatDuration, formatWhen, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";

export interface NoDataView {
  host: string;
  /** First poll without data. */
  sinceMs: number;
  /** The latest poll that said busy or idle; `null`: none on record. */
  lastKnownAtMs: number | null;
  /** The latest failed observation's one-line message (it names the host and the cause). */
  cause: string | null;
  nowMs: number;
  timezone: string;
  /** When data came back; `null` while the notice is open. */
  backAtMs: number | null;
}

/** The one "no data from host X since …" notice, and the same message once data is back. */
export function noDataMessage(view: NoDataView): SlackMessage {
  const { host, nowMs, timezone } = view;
  const since = formatWhen(view.sinceMs, nowMs, timezone);
  const bold = `*${escapeMrkdwn(host)}*`;
  const zone = { type: "mrkdwn" as const, text: `Times in ${escapeMrkdwn(timezone)}.` };
  if (view.backAtMs !== null) {
    const back = formatWhen(view.backAtMs, nowMs, timezone);
    const span = formatDuration(view.backAtMs - view.sinceMs);
    const blocks: types.KnownBlock[] = [
      { type: "header", text: { type: "plain_text", text: truncate(`✅ Data from ${host} is back`, 150) } },
      {
        type: "section",
        text: { type: "mrkdwn", text: `No data from host ${bold} from *${since}* to *${back}* (${span}).` },
      },
      { type: "context", elements: [zone] },
    ];
    return { text: truncate(`✅ Data from host ${host} is back (no data for ${span})`, 3000), blocks };
  }
  const cause = view.cause === null ? "" : `\nLatest attempt: ${escapeMrkdwn(truncate(view.cause, 500))}`;
  const lastKnown =
    view.lastKnownAtMs === null ? "none on record" : `*${formatWhen(view.lastKnownAtMs, nowMs, timezone)}*`;
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(`⚠️ No data from ${host}`, 150) } },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(
          `No data from host ${bold} since *${since}*.${cause}\nLast known state: ${lastKnown}.`,
          3000,
        ),
      },
    },
    {
      type: "context",
      elements: [
        {
          type: "mrkdwn",
          text: `Unknown is not idle: no idle alert and no stop for ${bold} until data is back.`,
        },
        zone,
      ],
    },
  ];
  return { text: truncate(`⚠️ No data from host ${host} since ${since}`, 3000), blocks };
}
