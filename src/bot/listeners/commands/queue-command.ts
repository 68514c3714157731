import type { Translator } from "../../../messages/translator.ts";
import { cancelQueued, readQueue } from "../../../usecases/queue/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { withPriorities } from "../../views/queue/priority-messages.ts";
import { queueCancelReply, queueListReply } from "../../views/queue/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";
import { queueReplyWithEta } from "./eta-replies.ts";

/** `/gpu queue`: the waiting list with positions (and priorities); `/gpu queue cancel`: leave it. */
export function queueCommand(deps: BotDeps, tr: Translator, user: string, cancel: boolean): Reply {
  if (cancel) return queueCancelReply(tr, cancelQueued(deps, user));
  const at = { nowMs: deps.clock.now(), zone: deps.config.team.timezone };
  const view = readQueue(deps);
  return queueReplyWithEta(
    deps,
    tr,
    withPriorities(tr, queueListReply(tr, view, user, at, GPU_COMMAND), view),
    user,
  );
}
