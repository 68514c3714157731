import { describeAction } from "../../../executors/run-action.ts";
import type { Translator } from "../../../messages/translator.ts";
import { slackEscape } from "../../../usecases/power/action-text.ts";
import type { StopPlan, StopRefusal } from "../../../usecases/power/stop-host.ts";
import { ACTION_IDS, stopValue } from "../../ids.ts";
import type { ProgressPlace } from "../../progress-place.ts";
import { memoryAtRiskText } from "../alerts/memory-at-risk.ts";
import { actions, button, clip, type Reply, section, textReply } from "../reply-message.ts";
import { progressPlaceWords } from "./progress-place-words.ts";
import { recentInputText } from "./recent-input-text.ts";
import { stopRefusalWords } from "./stop-refusal.ts";

/**
 * The `/gpu stop <host>` answer when the stop would go ahead: what will run, with *Stop now* and
 * *Cancel*. The preview is the confirmation step, so its button carries no second dialog.
 */
export function stopPreviewReply(tr: Translator, plan: StopPlan): Reply {
  const steps = [plan.preStop, plan.stop].flatMap((step) =>
    step === null ? [] : [`\`${slackEscape(describeAction(step))}\``],
  );
  const atRisk = memoryAtRiskText(tr, plan.gpus, 500);
  const recent = recentInputText(tr, plan.host, plan.recent, 500);
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

/**
 * The clicker's one answer to a stop that goes ahead (or a dry run): where its progress is posted.
 * The progress itself is said once, there.
 */
export function stopBegunReply(tr: Translator, plan: StopPlan, place: ProgressPlace): Reply {
  const id = plan.dryRun ? "stop.ack.dryRun" : "stop.ack.begun";
  return textReply(tr.t(id, { host: plan.host, place: progressPlaceWords(tr, place) }));
}

/**
 * Why the stop did not start, for the person who asked (said to them alone). A refusal an admin may
 * override comes with *Stop anyway* (and its confirm dialog) when `canForce`.
 */
export function stopResultReply(
  tr: Translator,
  result: StopRefusal,
  options: { canForce: boolean; alertId: number | null },
): Reply {
  if (result.forceable && options.canForce) return forceReply(tr, result, options.alertId);
  return textReply(stopRefusalWords(tr, result));
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
