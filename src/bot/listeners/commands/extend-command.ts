import type { GpuSlots } from "../../../checks/claim-target.ts";
import type { Translator } from "../../../messages/translator.ts";
import { extendClaims } from "../../../usecases/claims/extend-claims.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { extendReply } from "../../views/claims/claim-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu extend <host>[:<gpus>] <duration>`. */
export function extendCommand(
  deps: BotDeps,
  tr: Translator,
  user: string,
  slots: GpuSlots,
  durationMs: number,
): Reply {
  const result = extendClaims(deps, { actor: user, target: { kind: "slots", slots }, byMs: durationMs });
  return extendReply(tr, result, deps.clock.now(), GPU_COMMAND);
}
