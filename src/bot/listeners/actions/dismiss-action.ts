import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";

/** *Cancel* on an ephemeral question: removes it. */
export function dismissAction(): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, respond }) => {
    await ack();
    await respond({ delete_original: true });
  };
}
