import { describeAction } from "../../executors/run-action.ts";
import { slackEscape } from "../../usecases/action-text.ts";
import type { StopPlan, StopRefusal, StopResult } from "../../usecases/stop-host.ts";
import { ACTION_IDS, stopValue } from "../ids.ts";
import { memoryAtRiskText } from "./memory-at-risk.ts";
import { actions, button, clip, type Reply, section, textReply } from "./reply-message.ts";

/**
 * The `/gpu stop <host>` answer when the stop would go ahead: what will run, with *Stop now* and
 * *Cancel*. The preview is the confirmation step, so its button carries no second dialog.
 */
export function stopPreviewReply(plan: StopPlan): Reply {
  const steps = [plan.preStop, plan.stop].flatMap((step) =>
    step === null ? [] : [`\`${slackEscape(describeAction(step))}\``],
  );
  const dry = plan.dryRun ? " (dry run: it only shows what it would run)" : "";
  const atRisk = memoryAtRiskText(plan.gpus, 500);
  const question = `Stop *${plan.host}*? This runs ${steps.join(" then ")}${dry}.`;
  return {
    text: `Stop ${plan.host}?`,
    blocks: [
      section(atRisk === null ? question : `${question}\n${atRisk}`),
      actions([
        button({
          actionId: ACTION_IDS.stopHost,
          text: "Stop now",
          style: "danger",
          value: stopValue(plan.host, plan.alertId),
        }),
        button({ actionId: ACTION_IDS.dismiss, text: "Cancel" }),
      ]),
    ],
  };
}

/** Shown to the clicker while the stop runs. */
export function stopStartedReply(plan: StopPlan): Reply {
  return textReply(plan.text);
}

/**
 * The outcome for the person who asked. A refusal an admin may override comes with *Stop anyway*
 * (and its confirm dialog) when `canForce`.
 */
export function stopResultReply(
  result: StopResult,
  options: { canForce: boolean; alertId: number | null },
): Reply {
  if (result.kind === "refused" && result.forceable && options.canForce)
    return forceReply(result, options.alertId);
  return textReply(result.text);
}

function forceReply(refusal: StopRefusal, alertId: number | null): Reply {
  return {
    text: refusal.text,
    blocks: [
      section(`${refusal.text}.\nAs an admin you can stop it anyway; it is recorded as forced.`),
      actions([
        button({
          actionId: ACTION_IDS.stopHostForce,
          text: "Stop anyway",
          style: "danger",
          value: stopValue(refusal.host, alertId),
          confirm: {
            title: "Stop anyway?",
            text: clip(`${refusal.text}. Stop ${refusal.host} anyway? This is recorded as forced.`, 300),
            confirm: "Stop anyway",
            deny: "Cancel",
          },
        }),
        button({ actionId: ACTION_IDS.dismiss, text: "Cancel" }),
      ]),
    ],
  };
}
