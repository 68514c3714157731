import type { Translator } from "../../../messages/translator.ts";
import { type ReleaseTarget, releaseClaims } from "../../../usecases/claims/release-claims.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { releaseReply } from "../../views/claims/claim-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu release [<host>[:<gpus>] | all]`. */
export function releaseCommand(deps: BotDeps, tr: Translator, user: string, target: ReleaseTarget): Reply {
  const result = releaseClaims(deps, { actor: user, target });
  return releaseReply(tr, result, deps.clock.now(), GPU_COMMAND);
}
