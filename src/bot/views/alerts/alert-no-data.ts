import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type { NoDataView } from "../../../usecases/alerts/alert-words.ts";
import { emphasisBoundaries } from "../emphasis-boundaries.ts";
import { alertDuration, alertWhen, escapeMrkdwn, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";
import { unknownCauseWords } from "./unknown-cause.ts";

export type { NoDataView };

/** The one "no data from host X since …" notice, and the same message once data is back. */
export function noDataMessage(tr: Translator, view: NoDataView): SlackMessage {
  const { host, nowMs } = view;
  const since = alertWhen(tr, view.sinceMs, nowMs);
  const bold = `*${escapeMrkdwn(host)}*`;
  const zone = { type: "mrkdwn" as const, text: tr.t("alert.zone", { zone: escapeMrkdwn(tr.timeZone) }) };
  if (view.backAtMs !== null) {
    const back = alertWhen(tr, view.backAtMs, nowMs);
    const span = alertDuration(tr, view.backAtMs - view.sinceMs);
    const blocks: types.KnownBlock[] = [
      {
        type: "header",
        text: { type: "plain_text", text: truncate(tr.t("alert.noData.backHeader", { host }), 150) },
      },
      section(tr.t("alert.noData.backBody", { host: bold, since, back, span })),
      { type: "context", elements: [zone] },
    ];
    return { text: truncate(tr.t("alert.noData.backText", { host, span }), 3000), blocks };
  }
  const cause =
    view.cause === null
      ? ""
      : `\n${tr.t("alert.noData.cause", { cause: escapeMrkdwn(truncate(unknownCauseWords(tr, host, view.cause), 500)) })}`;
  const lastAt = view.lastSampleAtMs === null ? null : alertWhen(tr, view.lastSampleAtMs, nowMs);
  const outage =
    lastAt === null
      ? tr.t("alert.noData.never", { host: bold, since })
      : tr.t("alert.noData.since", { host: bold, at: lastAt });
  const fallback =
    lastAt === null
      ? tr.t("alert.noData.neverText", { host, since })
      : tr.t("alert.noData.sinceText", { host, at: lastAt });
  const blocks: types.KnownBlock[] = [
    {
      type: "header",
      text: { type: "plain_text", text: truncate(tr.t("alert.noData.header", { host }), 150) },
    },
    section(truncate(`${outage}${cause}`, 3000)),
    {
      type: "context",
      elements: [
        { type: "mrkdwn", text: emphasisBoundaries(tr.t("alert.noData.note", { host: bold })) },
        zone,
      ],
    },
  ];
  return { text: truncate(fallback, 3000), blocks };
}

function section(text: string): types.SectionBlock {
  return { type: "section", text: { type: "mrkdwn", text: emphasisBoundaries(text) } };
}
