import type { EmulatorState } from "../../src/playground/slack-emulator/emulator-state.ts";

/** A Chinese (Han) character, CJK punctuation or a full-width form. */
const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

/** Code blocks, inline code and `<…>` tokens: not mrkdwn emphasis. */
const LITERAL = /```[\s\S]*?```|`[^`\n]+`|<[^<>\n]+>/g;

/** An emphasis span for each mark: the mark, something that is not a space, …, the same mark. */
const SPANS = [
  /\*(?=[^\s*])[^*\n]*?(?<=[^\s*])\*/g,
  /_(?=[^\s_])[^_\n]*?(?<=[^\s_])_/g,
  /~(?=[^\s~])[^~\n]*?(?<=[^\s~])~/g,
];

/**
 * Each `*bold*`, `_italic_` or `~strike~` span of mrkdwn `text` whose mark touches a Chinese
 * character or full-width punctuation on its outside: Slack shows such marks as they are.
 */
export function cjkEmphasisProblems(text: string): string[] {
  const problems: string[] = [];
  for (const segment of text.replace(LITERAL, " ").split(/(?=\n)/)) {
    for (const spans of SPANS) {
      for (const match of segment.matchAll(spans)) {
        const before = segment[match.index - 1] ?? "";
        const after = segment[match.index + match[0].length] ?? "";
        if (CJK.test(before) || CJK.test(after)) problems.push(`${before}${match[0]}${after} in: ${text}`);
      }
    }
  }
  return problems;
}

/** Every mrkdwn text in a Slack payload: `text` objects of type mrkdwn and, at the top, the message's `text`. */
export function mrkdwnTexts(payload: unknown, topLevel = true): string[] {
  if (Array.isArray(payload)) return payload.flatMap((item) => mrkdwnTexts(item, false));
  if (typeof payload !== "object" || payload === null) return [];
  const object = payload as Record<string, unknown>;
  const mrkdwn = topLevel || object.type === "mrkdwn";
  return Object.entries(object).flatMap(([key, value]) =>
    key === "text" && typeof value === "string" ? (mrkdwn ? [value] : []) : mrkdwnTexts(value, false),
  );
}

/** The problems of {@link cjkEmphasisProblems} in everything the emulator holds: messages, their edits, ephemerals, views. */
export function emulatorCjkEmphasisProblems(state: EmulatorState): string[] {
  const payloads: unknown[] = [
    ...[...state.messages, ...state.ephemerals].flatMap((message) => [
      { text: message.text, blocks: message.blocks },
      ...message.edits.map((edit) => ({ text: edit.text, blocks: edit.blocks })),
    ]),
    ...[...state.views.values()].flatMap((view) => [view.view, ...view.versions].map((v) => ({ view: v }))),
  ];
  return payloads.flatMap((payload) => mrkdwnTexts(payload)).flatMap(cjkEmphasisProblems);
}

/** `text` as a person reads it: without the zero-width spaces that only guide Slack's parser. */
export function invisibleOut(text: string): string {
  return text.replaceAll("\u200b", "");
}
