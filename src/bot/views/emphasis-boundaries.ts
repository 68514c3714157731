/** U+200B: a boundary for Slack's mrkdwn parser that a reader does not see. */
export const ZERO_WIDTH_SPACE = "\u200b";

/** Code blocks, inline code and `<…>` links or mentions: left exactly as they are. */
const LITERAL = /```[\s\S]*?```|`[^`\n]+`|<[^<>\n]+>/g;

/** A `*bold*` span: the marks with something that is not a space just inside each. */
const BOLD = /\*(?=[^\s*])[^*\n]*?(?<=[^\s*])\*/g;

/** A neighbour that needs no boundary: the start or end, whitespace, or any ASCII character. */
function needsBoundary(char: string | undefined): boolean {
  return char !== undefined && char.codePointAt(0)! > 0x7f && char !== ZERO_WIDTH_SPACE && !/\s/.test(char);
}

function boundedBold(segment: string): string {
  return segment.replace(BOLD, (span: string, at: number) => {
    const before = needsBoundary(segment[at - 1]) ? ZERO_WIDTH_SPACE : "";
    const after = needsBoundary(segment[at + span.length]) ? ZERO_WIDTH_SPACE : "";
    return `${before}${span}${after}`;
  });
}

/**
 * `text` (mrkdwn) with a zero-width space between each `*bold*` mark and a neighbour that is not
 * ASCII: Slack only reads `*` as bold at a word boundary, and Chinese has no spaces between words,
 * so `闲置：*31 分钟*，` would show its asterisks. Code and `<…>` tokens are left alone; running it
 * twice changes nothing more.
 */
export function emphasisBoundaries(text: string): string {
  if (!text.includes("*")) return text;
  let out = "";
  let last = 0;
  for (const match of text.matchAll(LITERAL)) {
    out += boundedBold(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + boundedBold(text.slice(last));
}

/**
 * A Slack payload (a message's arguments, a reply, a view) with {@link emphasisBoundaries} applied to
 * every mrkdwn text object and to the message's own `text`.
 */
export function withEmphasisBoundaries<T>(payload: T): T {
  return boundedIn(payload, true) as T;
}

function boundedIn(value: unknown, topLevel: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => boundedIn(item, false));
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  const object = value as Record<string, unknown>;
  const mrkdwn = object.type === "mrkdwn" || topLevel;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(object)) {
    out[key] =
      key === "text" && mrkdwn && typeof field === "string"
        ? emphasisBoundaries(field)
        : boundedIn(field, false);
  }
  return out;
}
