import { cancelQueued, readQueue } from "../../../usecases/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { withPriorities } from "../../views/priority-messages.ts";
import { queueCancelReply, queueListReply } from "../../views/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";
import { queueReplyWithEta } from "./eta-replies.ts";

/** `/gpu queue`: the waiting list with positions (and priorities); `/gpu queue cancel`: leave it. */
export function queueCommand(deps: BotDeps, user: string, cancel: boolean): Reply {
  const tr = deps.readers.person(user);
  if (cancel) return queueCancelReply(tr, cancelQueued(deps, user));
  const at = { nowMs: deps.clock.now(), zone: deps.config.team.timezone };
  const view = readQueue(deps);
  return queueReplyWithEta(
    deps,
    tr,
    withPriorities(tr, queueListReply(tr, view, user, at, GPU_COMMAND), view),
  );
}
