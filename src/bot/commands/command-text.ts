/**
 * The text of a slash command as the user typed it, from what Slack sends.
 *
 * NOTE: Slack HTML-escapes `&`, `<` and `>` in command text, and with `should_escape: true` (see
 * manifest.yml) it sends what was picked from its lists as `<…>` tokens: `<@U123|alice>` or
 * `<@U123>` for a person, `<#C123|gpu>` for a channel, `<!here>`, `<!subteam^S123|@ml>`,
 * `<https://x.org|x.org>` for a link. People stay tokens, normalised to `<@U123>` or
 * `<@U123|alice>` (see {@link userIdOf}); everything else becomes what the user saw; entities are
 * decoded exactly once, so `R&amp;D` is `R&D` (and is escaped once again on output).
 */
export function commandText(wire: string): string {
  let out = "";
  let last = 0;
  for (const match of wire.matchAll(/<([^<>]*)>/g)) {
    out += unescapeEntities(wire.slice(last, match.index));
    out += token(match[1] ?? "");
    last = match.index + match[0].length;
  }
  return out + unescapeEntities(wire.slice(last));
}

/** A person as Slack sends them (`<@U123|name>`, `<@U123>`, `<@W123>`) or a bare member ID (`U123…`). */
export function userIdOf(word: string): string | null {
  const match = /^<@([UW][A-Z0-9]{2,})(\|[^>]*)?>$/.exec(word) ?? /^@?([UW][A-Z0-9]{2,})$/.exec(word);
  return match?.[1] ?? null;
}

/** `<@U123|alice>` → `@alice`, `<@U123>` → `@U123`: a person in a note, named without a mention. */
export function plainPeople(text: string): string {
  return text.replace(/<@([UW][A-Z0-9]{2,})(?:\|([^>]*))?>/g, (_all, id: string, name?: string) =>
    name === undefined || name === "" ? `@${id}` : `@${name}`,
  );
}

function token(inner: string): string {
  if (/^@[UW][A-Z0-9]{2,}(\|[^>]*)?$/.test(inner)) return `<${unescapeEntities(inner)}>`;
  const [head = "", label] = splitLabel(inner);
  if (head.startsWith("#")) return `#${label ?? head.slice(1)}`;
  if (head.startsWith("!subteam^")) return label ?? "@group";
  if (head.startsWith("!date^")) return label ?? "";
  if (head.startsWith("!")) return `@${label ?? head.slice(1)}`;
  return label ?? head;
}

function splitLabel(inner: string): [string, string | undefined] {
  const bar = inner.indexOf("|");
  if (bar < 0) return [unescapeEntities(inner), undefined];
  return [unescapeEntities(inner.slice(0, bar)), unescapeEntities(inner.slice(bar + 1))];
}

function unescapeEntities(text: string): string {
  return text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}
