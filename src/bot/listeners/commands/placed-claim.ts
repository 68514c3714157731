import { claimPlaced, type PlacedClaimRequest } from "../../../usecases/claim-placed.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { placementReply } from "../../views/placement-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/**
 * `/gpu claim <n> gpus>=<GiB> [--valley]`: the cheapest free GPUs with enough memory (`--wait` does not
 * apply: the waiting list does not keep memory floors). The answer is computed inside the ack, so the
 * reader's translator is the one known now (`readers.person`).
 */
export function placedClaim(deps: BotDeps, user: string, request: Omit<PlacedClaimRequest, "actor">): Reply {
  const result = claimPlaced(deps, { ...request, actor: user });
  return placementReply(deps.readers.person(user), result, request, GPU_COMMAND);
}
