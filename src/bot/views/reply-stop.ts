import { describeAction } from "../../executors/run-action.ts";
import type { Translator } from "../../messages/translator.ts";
import { slackEscape } from "../../usecases/action-text.ts";
import type { StopPlan, StopRefusal, StopResult } from "../../usecases/stop-host.ts";
import { ACTION_IDS, stopValue } from "../ids.ts";
import { memoryAtRiskText } from "./memory-at-risk.ts";
import { recentInputText } from "./recent-input-text.ts";
import { actions, button, clip, type Reply, section, textReply } from "./reply-message.ts";
import { stopRefusalWords } from "./stop-refusal.ts";
import { stopNoteWords } from "./stop-words.ts";

/**
 * The `/gpu stop <host>` answer when the stop would go ahead: what will run, with *Stop now* and
 * *Cancel*. The preview is the confirmation step, so its button carries no second dialog.
 */
export function stopPreviewReply(tr: Translator, plan: StopPlan): Reply {
  const steps = [plan.preStop, plan.stop].flatMap((step) =>
    step === null ? [] : [`\`${slackEscape(describeAction(step))}\``],
  );
  const atRisk = memoryAtRiskText(tr, plan.gpus, 500);
  const recent = recentInputText(tr, plan.host, plan.recent, plan.recentWithinHours, 500);
  const question = tr.t(plan.dryRun ? "stop.preview.questionDryRun" : "stop.preview.question", {
    host: plan.host,
    steps: steps.reduce((first, second) => tr.t("stop.preview.then", { first, second })),
  });
  return {
    text: tr.t("stop.preview.text", { host: plan.host }),
    blocks: [
      section([question, recent, atRisk].filter((line) => line !== null).join("\n")),
      actions([
        button({
          actionId: ACTION_IDS.stopHost,
          text: tr.t("stop.button.now"),
          style: "danger",
          value: stopValue(plan.host, plan.alertId),
        }),
        button({ actionId: ACTION_IDS.dismiss, text: tr.t("stop.button.cancel") }),
      ]),
    ],
  };
}

/** Shown to the clicker while the stop runs. */
export function stopStartedReply(tr: Translator, plan: StopPlan): Reply {
  return textReply(stopNoteWords(tr, plan.note));
}

/**
 * The outcome for the person who asked. A refusal an admin may override comes with *Stop anyway*
 * (and its confirm dialog) when `canForce`.
 */
export function stopResultReply(
  tr: Translator,
  result: StopResult,
  options: { canForce: boolean; alertId: number | null },
): Reply {
  if (result.kind === "refused") {
    if (result.forceable && options.canForce) return forceReply(tr, result, options.alertId);
    return textReply(stopRefusalWords(tr, result));
  }
  return textReply(stopNoteWords(tr, result.note));
}

function forceReply(tr: Translator, refusal: StopRefusal, alertId: number | null): Reply {
  const cancel = tr.t("stop.button.cancel");
  const said = stopRefusalWords(tr, refusal);
  return {
    text: said,
    blocks: [
      section(tr.t("stop.force.body", { refusal: said })),
      actions([
        button({
          actionId: ACTION_IDS.stopHostForce,
          text: tr.t("stop.button.anyway"),
          style: "danger",
          value: stopValue(refusal.host, alertId),
          confirm: {
            title: tr.t("stop.force.title"),
            text: clip(tr.t("stop.force.confirm", { refusal: said, host: refusal.host }), 300),
            confirm: tr.t("stop.button.anyway"),
            deny: cancel,
          },
        }),
        button({ actionId: ACTION_IDS.dismiss, text: cancel }),
      ]),
    ],
  };
}
