import type { RespondFn } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { isAdmin } from "../../../usecases/authorise.ts";
import { runStop, type StopPlan, type StopRefusal } from "../../../usecases/power/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { progressPlace } from "../../progress-place.ts";
import { stopBegunReply, stopResultReply } from "../../views/power/reply-stop.ts";
import type { replyOptions } from "./reply-options.ts";

/**
 * A click's stop after its checks: a refusal is answered to the clicker alone (with *Stop anyway* for
 * an admin where it may be forced); a begun stop runs while the clicker gets one short answer that
 * points to its thread (the use-case posts its progress there).
 */
export async function answerStop(input: {
  deps: BotDeps;
  tr: Translator;
  actor: string;
  alertId: number | null;
  begun: StopRefusal | StopPlan;
  respond: RespondFn;
  options: ReturnType<typeof replyOptions>;
}): Promise<void> {
  const { deps, tr, actor, alertId, begun, respond, options } = input;
  if (begun.kind === "refused") {
    const shown = { canForce: isAdmin(actor, deps.config), alertId };
    await respond({ ...stopResultReply(tr, begun, shown), ...options });
    return;
  }
  // NOTE: the stop runs even when the answer fails: the key is taken and must be released.
  const [answer, outcome] = await Promise.allSettled([
    respond({ ...stopBegunReply(tr, begun, progressPlace(deps, begun.host)), ...options }),
    runStop(deps, begun),
  ]);
  if (outcome.status === "rejected") throw outcome.reason;
  if (answer.status === "rejected") throw answer.reason;
}
