import type { Translator } from "../../../messages/translator.ts";
import { isAdmin } from "../../../usecases/authorise.ts";
import { previewStop } from "../../../usecases/power/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { stopPreviewReply, stopResultReply } from "../../views/power/reply-stop.ts";
import type { Reply } from "../../views/reply-message.ts";

/**
 * `/gpu stop <host>`: the same checks as the button, then a preview of what will run with a
 * *Stop now* button that goes through the button's path (and its exactly-once key). Typing a host
 * name is easier to get wrong than clicking an alert, and a stop cannot be undone, so nothing runs
 * before that second, deliberate click.
 */
export function gpuStop(deps: BotDeps, tr: Translator, user: string, host: string): Reply {
  const check = previewStop(deps, { host, actor: user, reason: "/gpu stop" });
  if (check.kind === "begun") return stopPreviewReply(tr, check);
  const alertId = deps.state.alerts.openFor(host, "idle")?.id ?? null;
  return stopResultReply(tr, check, { canForce: isAdmin(user, deps.config), alertId });
}
