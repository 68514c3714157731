import type { ClaimTarget } from "../../../usecases/claim-gpus.ts";
import { claimGpus } from "../../../usecases/claim-gpus.ts";
import { claimOrWait } from "../../../usecases/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { claimReply } from "../../views/claim-reply.ts";
import { claimOrWaitReply } from "../../views/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";
import { joinReplyWithEta } from "./eta-replies.ts";
import { placedClaim } from "./placed-claim.ts";

/** `/gpu claim <host>[:<gpus>] | <n> [<model>] [for <duration>] [note…] [--wait]`. */
export function claimCommand(
  deps: BotDeps,
  user: string,
  parsed: {
    target: ClaimTarget;
    durationMs: number | null;
    note: string;
    wait?: true;
    placement?: { floorMiB: number; valley: boolean };
  },
): Reply {
  const { target, durationMs, note } = parsed;
  if (parsed.placement !== undefined && target.kind === "count") {
    return placedClaim(deps, user, { ...parsed.placement, count: target.count, durationMs, note });
  }
  const request = { actor: user, target, durationMs, note };
  if (parsed.wait === true) {
    const waited = claimOrWait(deps, request);
    const reply = claimOrWaitReply(waited, GPU_COMMAND);
    return waited.kind === "wait" ? joinReplyWithEta(deps, user, waited.result, reply) : reply;
  }
  return claimReply(claimGpus(deps, request), GPU_COMMAND, { target, durationMs, note });
}
