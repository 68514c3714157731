import type { Translator } from "../../../messages/translator.ts";
import { beginStart, runStartInBackground } from "../../../usecases/power/start-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { progressPlace } from "../../progress-place.ts";
import { startReply } from "../../views/power/start-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/**
 * `/gpu start <host>` and the *Start* buttons: the checks, the host's start taken at once (so
 * repeated asks join the first), then the action runs after the answer. Its progress is posted once,
 * in the alert's thread; the answer points there, and the asker gets a DM when the host reports
 * again (or does not).
 */
export function gpuStart(
  deps: BotDeps,
  tr: Translator,
  user: string,
  host: string,
  trigger: "command" | "button" = "command",
): Reply {
  const began = beginStart(deps, { host, actor: user, trigger, user });
  if (began.kind === "begun") void runStartInBackground(deps, began);
  return startReply(tr, began, deps.clock.now(), progressPlace(deps, host));
}
