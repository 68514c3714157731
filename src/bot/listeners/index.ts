import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import type { BotDeps } from "../bot-deps.ts";
import { ACTION_IDS, KEEP_ACTION_IDS } from "../ids.ts";
import { GPU_COMMAND } from "../surface.ts";
import { claimHostAction } from "./actions/claim-host-action.ts";
import { dismissAction } from "./actions/dismiss-action.ts";
import { keepHostAction } from "./actions/keep-host-action.ts";
import { stopHostAction } from "./actions/stop-host-action.ts";
import { gpuCommand } from "./commands/gpu-command.ts";

/** Every command and button the bot answers, in one place. */
export function registerListeners(app: App, deps: BotDeps): void {
  app.command(GPU_COMMAND, gpuCommand(deps));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.stopHost, stopHostAction(deps, false));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.stopHostForce, stopHostAction(deps, true));
  for (const actionId of Object.values(KEEP_ACTION_IDS)) {
    app.action<BlockAction<ButtonAction>>(actionId, keepHostAction(deps));
  }
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.claimHost, claimHostAction(deps));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.dismiss, dismissAction());
}
