import type { BlockAction } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { type Reply, textReply } from "../../views/reply-message.ts";

/**
 * How a button's answer is shown: ephemeral to the clicker; replacing the message when the button
 * sat in an ephemeral (a preview or a refusal), a new ephemeral when it sat in a channel message.
 */
export function replyOptions(body: BlockAction): { response_type: "ephemeral"; replace_original: boolean } {
  return { response_type: "ephemeral", replace_original: body.container.is_ephemeral === true };
}

/**
 * A button whose value does not parse: said plainly, nothing done, in the clicker's language.
 */
export function badButtonReply(problem: string, tr: Translator): Reply {
  return textReply(tr.t("common.badButton", { problem }));
}
