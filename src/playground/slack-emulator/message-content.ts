import { charCount, isObject, type JsonObject } from "./json.ts";
import { blockProblems, blocksTextChars } from "./validate-blocks.ts";

/** Slack truncates longer message text instead of refusing it. */
export const MAX_MESSAGE_TEXT_CHARS = 40_000;
/** `chat.update` and `chat.postEphemeral` refuse longer text with `msg_too_long`. */
export const MAX_EDIT_TEXT_CHARS = 4_000;
export const MAX_ATTACHMENTS = 100;

export interface ContentLimits {
  /** Longer text is refused with `msg_too_long`; undefined: truncated at 40,000 instead. */
  maxTextChars: number | undefined;
  /** Budget for all `text` strings in the blocks together (`msg_blocks_too_long`). */
  blocksTextLimitChars: number;
}

export interface MessageContent {
  text: string | undefined;
  blocks: JsonObject[] | undefined;
  attachments: JsonObject[] | undefined;
}

export type ContentCheck = { ok: true; content: MessageContent } | { ok: false; body: JsonObject };

/** `{ok:false, error, …}` the way the Web API answers. */
export function platformError(error: string, extra: JsonObject = {}): JsonObject {
  return { ok: false, error, ...extra };
}

/** Slack's `invalid_blocks` body: the problems both bare in `errors` and as `[ERROR]` messages. */
export function invalidBlocks(problems: string[]): JsonObject {
  return platformError("invalid_blocks", {
    errors: problems,
    response_metadata: { messages: problems.map((line) => `[ERROR] ${line}`) },
  });
}

/**
 * Checks `text` / `blocks` / `attachments` / `markdown_text` of a message the way
 * `chat.postMessage` does; `requireContent` false allows none of them (a `chat.update`
 * that only changes metadata is still refused by the caller).
 */
export function checkMessageContent(args: JsonObject, limits: ContentLimits): ContentCheck {
  const fail = (body: JsonObject): ContentCheck => ({ ok: false, body });
  let blocks: JsonObject[] | undefined;
  if (args.blocks !== undefined) {
    if (!Array.isArray(args.blocks)) return fail(platformError("invalid_blocks_format"));
    const problems = blockProblems(args.blocks, "message");
    if (problems.length > 0) return fail(invalidBlocks(problems));
    if (blocksTextChars(args.blocks) > limits.blocksTextLimitChars)
      return fail(platformError("msg_blocks_too_long"));
    blocks = args.blocks.filter(isObject);
  }
  let attachments: JsonObject[] | undefined;
  if (args.attachments !== undefined) {
    if (!Array.isArray(args.attachments)) return fail(platformError("invalid_attachments"));
    if (args.attachments.length > MAX_ATTACHMENTS) return fail(platformError("too_many_attachments"));
    attachments = args.attachments.filter(isObject);
  }
  let text = typeof args.text === "string" ? args.text : undefined;
  const markdown = typeof args.markdown_text === "string" ? args.markdown_text : undefined;
  if (markdown !== undefined) {
    if (text !== undefined || blocks !== undefined) return fail(platformError("markdown_text_conflict"));
    if (charCount(markdown) > 12_000) return fail(platformError("msg_too_long"));
    text = markdown;
  }
  const empty =
    (text === undefined || text === "") && (blocks?.length ?? 0) === 0 && attachments === undefined;
  if (empty) return fail(platformError("no_text"));
  if (text !== undefined) {
    const chars = charCount(text);
    if (limits.maxTextChars !== undefined && chars > limits.maxTextChars)
      return fail(platformError("msg_too_long"));
    if (chars > MAX_MESSAGE_TEXT_CHARS) text = Array.from(text).slice(0, MAX_MESSAGE_TEXT_CHARS).join("");
  }
  return { ok: true, content: { text, blocks, attachments } };
}

const INTERACTIVE_HOLDERS = ["elements", "accessory", "element"] as const;

/**
 * The blocks as Slack stores them: every block gets a `block_id` and every interactive element
 * an `action_id` (random in Slack, sequential here), so payloads carry them like Slack's do.
 */
export function normalizeBlocks(blocks: JsonObject[], nextId: () => string): JsonObject[] {
  return blocks.map((block) => {
    const copy: JsonObject = {
      ...block,
      block_id: typeof block.block_id === "string" ? block.block_id : nextId(),
    };
    for (const key of INTERACTIVE_HOLDERS) {
      const value = copy[key];
      if (Array.isArray(value))
        copy[key] = value.map((el) => withActionId(el, nextId, copy.type === "context"));
      else if (isObject(value)) copy[key] = withActionId(value, nextId, false);
    }
    return copy;
  });
}

function withActionId(element: unknown, nextId: () => string, inContext: boolean): unknown {
  if (!isObject(element) || inContext || element.type === "image") return element;
  return typeof element.action_id === "string" ? element : { ...element, action_id: nextId() };
}
