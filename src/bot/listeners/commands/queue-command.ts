import { cancelQueued, readQueue } from "../../../usecases/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { queueCancelReply, queueListReply } from "../../views/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";
import { queueReplyWithEta } from "./eta-replies.ts";

/** `/gpu queue`: the waiting list with positions; `/gpu queue cancel`: leave it. */
export function queueCommand(deps: BotDeps, user: string, cancel: boolean): Reply {
  if (cancel) return queueCancelReply(cancelQueued(deps, user));
  const at = { nowMs: deps.clock.now(), zone: deps.config.team.timezone };
  return queueReplyWithEta(deps, user, queueListReply(readQueue(deps), user, at, GPU_COMMAND));
}
