import type { Middleware, SlackEventMiddlewareArgs } from "@slack/bolt";
import { publishHome } from "../../../usecases/fleet/publish-home.ts";
import type { BotDeps } from "../../bot-deps.ts";

/** `app_home_opened` on the Home tab: publishes that user's Home (claims, cost warden, fleet board). */
export function homeOpenedEvent(deps: BotDeps): Middleware<SlackEventMiddlewareArgs<"app_home_opened">> {
  return async ({ event }) => {
    if (event.tab !== "home") return;
    // NOTE: the Home tab is built in the reader's language, known once looked up.
    await deps.readers.lookUp(event.user);
    publishHome(deps, event.user);
  };
}
