import type { Translator } from "../../../messages/translator.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { helpReply } from "../../views/reply-help.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu help` in the asker's language; bare `/gpu` adds the asker's claims. */
export function gpuHelp(deps: BotDeps, tr: Translator, user: string, bare: boolean): Reply {
  if (!bare) return helpReply(tr, GPU_COMMAND, null);
  const nowMs = deps.clock.now();
  const claims = deps.state.claims.activeAt(nowMs).filter((claim) => claim.user === user);
  return helpReply(tr, GPU_COMMAND, { claims, nowMs });
}
