import { readMyClaims } from "../../../usecases/read-home.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { mineReply } from "../../views/claim-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu mine`: the asker's claims with *Extend 4 h* / *Release*. */
export function mineCommand(deps: BotDeps, user: string): Reply {
  return mineReply(deps.readers.person(user), readMyClaims(deps, user), deps.clock.now(), GPU_COMMAND);
}
