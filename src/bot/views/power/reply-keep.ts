import type { Translator } from "../../../messages/translator.ts";
import type { KeepResult } from "../../../usecases/alerts/keep-host.ts";
import { mention } from "../alerts/alert-format.ts";
import { unknownHostWords } from "../unknown-host.ts";
import { whenWords } from "../when-words.ts";
import { whoMayAct } from "../who-may-act.ts";

/** What the person who asked for a keep reads: kept until when, already kept, or why not. */
export function keepReplyText(tr: Translator, result: KeepResult, asker: string): string {
  const { host } = result;
  if (result.kind === "kept") {
    const until = whenWords(tr, result.untilMs, result.nowMs);
    if (result.already) {
      return result.byUser === asker
        ? tr.t("keep.alreadyYou", { host, until })
        : tr.t("keep.already", { host, until, user: mention(result.byUser) });
    }
    const duration = tr.duration(result.untilMs - result.nowMs);
    return result.capped
      ? tr.t("keep.keptCapped", { host, until, duration, max: tr.duration(result.maxMs) })
      : tr.t("keep.kept", { host, until, duration });
  }
  switch (result.reason) {
    case "unknown-host":
      return unknownHostWords(tr, result.unknown);
    case "not-allowed": {
      const who = whoMayAct(tr, result.authority);
      return who === null ? tr.t("keep.refused.nobody", { host }) : tr.t("keep.refused.only", { who });
    }
    case "never-stop":
      return tr.t("keep.neverStop", { host });
    default:
      return result satisfies never;
  }
}
