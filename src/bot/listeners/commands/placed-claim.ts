import type { NamedProject } from "../../../checks/queue-project.ts";
import type { Translator } from "../../../messages/translator.ts";
import { claimPlaced, type PlacedClaimRequest } from "../../../usecases/claims/claim-placed.ts";
import { claimPlacedOrWait } from "../../../usecases/claims/claim-placed-wait.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { placementReply } from "../../views/claims/placement-reply.ts";
import { joinQueueReply } from "../../views/queue/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";
import { joinReplyWithEta } from "./eta-replies.ts";

/**
 * `/gpu claim <n> gpus>=<GiB> [--valley] [--wait]`: the cheapest free GPUs with enough memory; with
 * `--wait`, a request that cannot be placed now joins the line keeping its floor and valley. Said in
 * `tr`'s language.
 */
export function placedClaim(
  deps: BotDeps,
  tr: Translator,
  user: string,
  request: Omit<PlacedClaimRequest, "actor"> & { wait: boolean; project?: NamedProject | null },
): Reply {
  const { wait, ...asked } = request;
  const nowMs = deps.clock.now();
  if (!wait) {
    const result = claimPlaced(deps, { ...asked, actor: user });
    return placementReply(tr, result, request, nowMs, GPU_COMMAND);
  }
  const outcome = claimPlacedOrWait(deps, { ...asked, actor: user });
  if (outcome.kind === "placed") return placementReply(tr, outcome.result, request, nowMs, GPU_COMMAND);
  return joinReplyWithEta(deps, tr, outcome.result, joinQueueReply(tr, outcome.result, GPU_COMMAND));
}
