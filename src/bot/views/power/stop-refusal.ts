import type { Translator } from "../../../messages/translator.ts";
import type { StopRefusal } from "../../../usecases/power/stop-host.ts";
import { mention } from "../alerts/alert-format.ts";
import { hostNowWords } from "../alerts/host-now-words.ts";
import { unknownHostWords } from "../unknown-host.ts";
import { whenWords } from "../when-words.ts";
import { whoMayAct } from "../who-may-act.ts";

/** Why a stop was refused, in the reader's words. */
export function stopRefusalWords(tr: Translator, refusal: Pick<StopRefusal, "host" | "facts">): string {
  const { host, facts } = refusal;
  switch (facts.reason) {
    case "unknown-host":
      return unknownHostWords(tr, facts.unknown);
    case "not-allowed": {
      const who = whoMayAct(tr, facts.authority);
      return who === null ? tr.t("stop.refused.nobody", { host }) : tr.t("stop.refused.only", { who });
    }
    case "never-stop":
      return tr.t("stop.refused.neverStop", { host });
    case "no-stop-action":
      return tr.t("stop.refused.noAction", { host });
    case "already-running":
    case "already-stopped": {
      const args = { host, user: mention(facts.actor), at: whenWords(tr, facts.atMs, facts.nowMs) };
      return tr.t(facts.reason === "already-running" ? "stop.refused.running" : "stop.refused.stopped", args);
    }
    case "kept":
    case "claimed": {
      const args = { host, user: mention(facts.user), until: whenWords(tr, facts.untilMs, facts.nowMs) };
      return tr.t(facts.reason === "kept" ? "stop.refused.kept" : "stop.refused.claimed", args);
    }
    case "not-idle":
      return tr.t("stop.refused.notIdle", { host, status: facts.status ?? tr.t("stop.refused.noState") });
    default:
      return hostNowWords(tr, host, facts);
  }
}
