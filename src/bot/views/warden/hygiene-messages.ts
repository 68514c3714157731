import type { RunAdvice } from "../../../checks/run-advice.ts";
import type { HygieneItem, StoredHygieneItem } from "../../../domain/hygiene.ts";
import type { Translator } from "../../../messages/translator.ts";
import { couldNotCheckText, hygieneCheckName, hygieneFindingText } from "../../../reports/hygiene-report.ts";
import { slackEscape } from "../../../shared/slack-text.ts";
import type { RenderedReply } from "../../../usecases/ports.ts";
import type { HygieneWords } from "../../../usecases/warden/hygiene-words.ts";
import type { Readers } from "../../readers.ts";

/** The hygiene messages: the warden reads the checklist in their language, the channel the section. */
export function hygieneWords(readers: Readers): HygieneWords {
  return {
    checklist: (items, warden) => hygieneMessage(readers.person(warden), items, "checklist"),
    summarySection: (items, advice) =>
      withAdvice(
        readers.channel,
        items.length === 0 ? { text: "", blocks: [] } : hygieneMessage(readers.channel, items, "summary"),
        advice,
      ),
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

/** The advice lines (spot, valley, mixed pools) under the hygiene section; nothing when there is no advice. */
function withAdvice(
  tr: Translator,
  reply: RenderedReply,
  input: { advice: RunAdvice; spotMaxHours: number; spotDiscountPct: number } | null,
): RenderedReply {
  if (input === null) return reply;
  const { advice } = input;
  const lines: string[] = [];
  if (advice.spot.length > 0) {
    lines.push(
      tr.t("hygiene.adviceSpot", {
        count: advice.spot.length,
        hours: input.spotMaxHours,
        saving: advice.spotSaving,
        discount: input.spotDiscountPct,
        cost: advice.spot.reduce((sum, s) => sum + s.cost, 0),
      }),
    );
  }
  if (advice.valley.length > 0) {
    lines.push(tr.t("hygiene.adviceValley", { count: advice.valley.length, saving: advice.valleySaving }));
  }
  if (advice.mixedHosts.length > 0)
    lines.push(tr.t("hygiene.adviceMixed", { hosts: advice.mixedHosts.join(", ") }));
  if (lines.length === 0) return reply;
  const title = tr.t("hygiene.adviceTitle");
  const body = lines.map((line) => `• ${slackEscape(line)}`).join("\n");
  return {
    text: [reply.text, title, body].filter((part) => part !== "").join("\n"),
    blocks: [
      ...(reply.blocks ?? []),
      { type: "header", text: { type: "plain_text", text: title } },
      { type: "section", text: { type: "mrkdwn", text: body } },
    ],
  };
}
