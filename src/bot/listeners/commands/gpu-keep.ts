import type { Translator } from "../../../messages/translator.ts";
import { type KeepSpan, keepHost } from "../../../usecases/alerts/keep-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { keepReplyText } from "../../views/power/reply-keep.ts";
import { type Reply, textReply } from "../../views/reply-message.ts";

/** `/gpu keep <host> <duration>`. */
export function gpuKeep(deps: BotDeps, tr: Translator, user: string, host: string, span: KeepSpan): Reply {
  const result = keepHost(deps, { host, actor: user, span });
  return textReply(keepReplyText(tr, result, user));
}
