import type { types } from "@slack/bolt";
import { emphasisBoundaries } from "./emphasis-boundaries.ts";

/** A message for one person (an ack body or a `respond()`): fallback text plus optional blocks. */
export interface Reply {
  text: string;
  blocks?: types.KnownBlock[];
}

/** Slack's limits that the views keep to. */
export const LIMITS = {
  blocksPerMessage: 50,
  sectionTextChars: 3000,
  /** Slack rejects a message whose block text adds up to much more (`msg_blocks_too_long`). */
  messageBlockTextChars: 11_000,
  /** `text` of chat.update / postEphemeral / responses. */
  messageTextChars: 4000,
  buttonTextChars: 75,
  confirmTextChars: 300,
} as const;

export function textReply(text: string): Reply {
  return { text: clip(emphasisBoundaries(text), LIMITS.messageTextChars) };
}

export function section(text: string): types.SectionBlock {
  return {
    type: "section",
    text: { type: "mrkdwn", text: clip(emphasisBoundaries(text), LIMITS.sectionTextChars) },
  };
}

export function context(text: string): types.ContextBlock {
  return {
    type: "context",
    elements: [{ type: "mrkdwn", text: clip(emphasisBoundaries(text), LIMITS.sectionTextChars) }],
  };
}

export function button(input: {
  actionId: string;
  text: string;
  value?: string;
  style?: "primary" | "danger";
  confirm?: { title: string; text: string; confirm: string; deny: string };
}): types.Button {
  const element: types.Button = {
    type: "button",
    action_id: input.actionId,
    text: { type: "plain_text", text: clip(input.text, LIMITS.buttonTextChars) },
  };
  if (input.value !== undefined) element.value = input.value;
  if (input.style !== undefined) element.style = input.style;
  if (input.confirm !== undefined) {
    element.confirm = {
      title: { type: "plain_text", text: clip(input.confirm.title, 100) },
      text: { type: "mrkdwn", text: clip(emphasisBoundaries(input.confirm.text), LIMITS.confirmTextChars) },
      confirm: { type: "plain_text", text: clip(input.confirm.confirm, 30) },
      deny: { type: "plain_text", text: clip(input.confirm.deny, 30) },
      style: input.style === "danger" ? "danger" : "primary",
    };
  }
  return element;
}

export function actions(elements: types.Button[]): types.ActionsBlock {
  return { type: "actions", elements };
}

/** Cuts `text` to at most `max` characters, marking the cut with `…`. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
