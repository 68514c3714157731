import type { Translator } from "../../../messages/translator.ts";
import { readMyClaims } from "../../../usecases/fleet/read-home.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { mineReply } from "../../views/claims/claim-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu mine`: the asker's claims with *Extend 4 h* / *Release*. */
export function mineCommand(deps: BotDeps, tr: Translator, user: string): Reply {
  return mineReply(tr, readMyClaims(deps, user), deps.clock.now(), GPU_COMMAND);
}
