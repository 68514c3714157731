import { closest } from "../../shared/closest.ts";

export { BOT_ACTOR, mention, slackEscape } from "../../shared/slack-text.ts";

/**
 * A host name nobody knows, and what to tell the person: the one host that starts with what was
 * typed (else the closest within two edits), none known yet, the known hosts when there are few, or
 * how many there are.
 */
export type UnknownHost = { host: string } & (
  | { kind: "suggest"; suggestion: string }
  | { kind: "none-seen" }
  | { kind: "list"; hosts: readonly string[] }
  | { kind: "many"; count: number }
);

/** What to tell a person who named `host`, which is not among `known`. */
export function unknownHost(host: string, known: readonly string[]): UnknownHost {
  const extending = known.filter((name) => name.toLowerCase().startsWith(host.toLowerCase()));
  const suggestion = extending.length === 1 ? extending[0]! : closest(host, known);
  if (suggestion !== null) return { host, kind: "suggest", suggestion };
  if (known.length === 0) return { host, kind: "none-seen" };
  if (known.length <= 10) return { host, kind: "list", hosts: known };
  return { host, kind: "many", count: known.length };
}
