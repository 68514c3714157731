import type { ClaimTarget } from "../../../usecases/claim-gpus.ts";
import { claimGpus } from "../../../usecases/claim-gpus.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { claimReply } from "../../views/claim-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu claim <host>[:<gpus>] | <n> [<model>] [for <duration>] [note…]`. */
export function claimCommand(
  deps: BotDeps,
  user: string,
  parsed: { target: ClaimTarget; durationMs: number | null; note: string },
): Reply {
  const { target, durationMs, note } = parsed;
  const result = claimGpus(deps, { actor: user, target, durationMs, note });
  return claimReply(result, GPU_COMMAND);
}
