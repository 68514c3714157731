import type { types } from "@slack/bolt";
import type { NoDataView } from "../../usecases/alert-words.ts";
import { escapeMrkdwn, formatDuration, formatWhen, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";

export type { NoDataView };

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
  const outage =
    view.lastSampleAtMs === null
      ? `No reading from host ${bold} on record: polled without one since *${since}*.`
      : `No data from host ${bold} since *${formatWhen(view.lastSampleAtMs, nowMs, timezone)}*, its last reading.`;
  const fallback =
    view.lastSampleAtMs === null
      ? `⚠️ No reading from host ${host} on record (polled since ${since})`
      : `⚠️ No data from host ${host} since ${formatWhen(view.lastSampleAtMs, nowMs, timezone)}`;
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(`⚠️ No data from ${host}`, 150) } },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(`${outage}${cause}`, 3000),
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
  return { text: truncate(fallback, 3000), blocks };
}
