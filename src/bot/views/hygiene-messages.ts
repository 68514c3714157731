import type { HygieneItem, StoredHygieneItem } from "../../domain/hygiene.ts";
import type { Translator } from "../../messages/translator.ts";
import { couldNotCheckText, hygieneCheckName, hygieneFindingText } from "../../reports/hygiene-report.ts";
import { slackEscape } from "../../shared/slack-text.ts";
import type { HygieneWords } from "../../usecases/hygiene-words.ts";
import type { RenderedReply } from "../../usecases/ports.ts";
import type { Readers } from "../readers.ts";

/** The hygiene messages: the warden reads the checklist in their language, the channel the section. */
export function hygieneWords(readers: Readers): HygieneWords {
  return {
    checklist: (items, warden) => hygieneMessage(readers.person(warden), items, "checklist"),
    summarySection: (items) => hygieneMessage(readers.channel, items, "summary"),
  };
}

function itemText(tr: Translator, item: HygieneItem): string {
  return item.kind === "finding" ? hygieneFindingText(tr, item.finding) : couldNotCheckText(tr, item.why);
}

/** One section per host, a line per item: `check: what to do`. */
export function hygieneMessage(
  tr: Translator,
  items: readonly StoredHygieneItem[],
  as: "checklist" | "summary",
): RenderedReply {
  const title = tr.t(as === "checklist" ? "hygiene.checklistTitle" : "hygiene.summaryTitle");
  const hosts = [...new Set(items.map((item) => item.host))];
  const sections = hosts.map((host) => {
    const lines = items
      .filter((item) => item.host === host)
      .map(
        (item) =>
          `• ${slackEscape(tr.t("hygiene.line", { check: hygieneCheckName(tr, item.check), text: itemText(tr, item.item) }))}`,
      );
    return { host, text: `*${slackEscape(host)}*\n${lines.join("\n")}` };
  });
  return {
    text: [title, ...sections.map((s) => s.text)].join("\n"),
    blocks: [
      { type: "header", text: { type: "plain_text", text: title } },
      { type: "context", elements: [{ type: "mrkdwn", text: tr.t("hygiene.checklistIntro") }] },
      ...sections
        .slice(0, 45)
        .map((s) => ({ type: "section", text: { type: "mrkdwn", text: s.text.slice(0, 3000) } })),
    ],
  };
}
