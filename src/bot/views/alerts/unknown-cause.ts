import type { Translator } from "../../../messages/translator.ts";
import type { UnknownCause } from "../../../usecases/alerts/alert-words.ts";

/** Why `host` is unknown, in one line: the source's message as it came, or what the reading lacked. */
export function unknownCauseWords(tr: Translator, host: string, cause: UnknownCause): string {
  switch (cause.kind) {
    case "failed":
      return cause.message;
    case "no-gpus":
      return tr.t("alert.cause.noGpus", { host });
    case "no-reading":
      return tr.t("alert.cause.noReading", { host, count: cause.count, total: cause.total });
    case "gap":
      return tr.t("alert.cause.gap", { host });
    default:
      return cause satisfies never;
  }
}
