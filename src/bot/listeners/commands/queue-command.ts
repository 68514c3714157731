import { cancelQueued, readQueue } from "../../../usecases/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { queueCancelReply, queueListReply } from "../../views/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu queue`: the waiting list with positions; `/gpu queue cancel`: leave it. */
export function queueCommand(deps: BotDeps, user: string, cancel: boolean): Reply {
  const tr = deps.readers.person(user);
  if (cancel) return queueCancelReply(tr, cancelQueued(deps, user));
  const at = { nowMs: deps.clock.now(), zone: deps.config.team.timezone };
  return queueListReply(tr, readQueue(deps), user, at, GPU_COMMAND);
}
