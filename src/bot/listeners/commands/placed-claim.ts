import type { Translator } from "../../../messages/translator.ts";
import { claimPlaced, type PlacedClaimRequest } from "../../../usecases/claim-placed.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { placementReply } from "../../views/placement-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/**
 * `/gpu claim <n> gpus>=<GiB> [--valley]`: the cheapest free GPUs with enough memory (with `--wait` the
 * parser refuses it: the waiting list does not keep memory floors). Said in `tr`'s language.
 */
export function placedClaim(
  deps: BotDeps,
  tr: Translator,
  user: string,
  request: Omit<PlacedClaimRequest, "actor">,
): Reply {
  const result = claimPlaced(deps, { ...request, actor: user });
  return placementReply(tr, result, request, deps.clock.now(), GPU_COMMAND);
}
