import type { Translator } from "../../messages/translator.ts";
import { slackEscape, type UnknownHost } from "../../usecases/power/action-text.ts";

/** `no host gpu-b; did you mean gpu-b1?`, or the known hosts when there are few. */
export function unknownHostWords(tr: Translator, facts: UnknownHost): string {
  const host = slackEscape(facts.host);
  switch (facts.kind) {
    case "suggest":
      return tr.t("host.unknown.suggest", { host, suggestion: facts.suggestion });
    case "none-seen":
      return tr.t("host.unknown.noneSeen", { host });
    case "list":
      return tr.t("host.unknown.list", { host, hosts: andList(tr, facts.hosts) });
    case "many":
      return tr.t("host.unknown.many", { host, count: facts.count });
    default:
      return facts satisfies never;
  }
}

function andList(tr: Translator, items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return tr.t("host.list", {
    rest: items.slice(0, -1).join(tr.t("host.list.separator")),
    last: items.at(-1)!,
  });
}
