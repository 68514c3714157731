import type { BlockAction, RespondFn } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { publishHome } from "../../../usecases/fleet/publish-home.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { type Reply, textReply } from "../../views/reply-message.ts";

/** A claim button whose value does not parse, in the clicker's language: said plainly, nothing done. */
export function claimBadButton(tr: Translator, problem: string): Reply {
  return textReply(tr.t("claim.badButton", { problem }));
}

/**
 * Shows the answer to a claim button where it was clicked: on the Home tab, republished with the
 * answer on top (Home has no `response_url`); in a DM (reminder, nudge, "free now"), in place of
 * the message, so its buttons go; on an ephemeral, in its place; under a channel message, as a new
 * ephemeral.
 */
export async function answerClaimClick(
  deps: BotDeps,
  body: BlockAction,
  respond: RespondFn | undefined,
  reply: Reply,
): Promise<void> {
  if (body.container.type === "view") {
    publishHome(deps, body.user.id, reply.text);
    return;
  }
  if (respond === undefined) return;
  const inDm = body.channel?.id.startsWith("D") === true;
  await respond({
    ...reply,
    response_type: "ephemeral",
    replace_original: body.container.is_ephemeral === true || inDm,
  });
}
