import type { App, BlockAction, ButtonAction, ViewSubmitAction } from "@slack/bolt";
import type { BotDeps } from "../bot-deps.ts";
import { ACTION_IDS, KEEP_ACTION_IDS, RECLAIM_ACTION_IDS, RECLAIM_VIEW_IDS } from "../ids.ts";
import { GPU_COMMAND } from "../surface.ts";
import { claimHostAction } from "./actions/claim-host-action.ts";
import { claimNotifyAction } from "./actions/claim-notify-action.ts";
import { claimSlotsAction } from "./actions/claim-slots-action.ts";
import { claimStillUsingAction } from "./actions/claim-still-using-action.ts";
import { dismissAction } from "./actions/dismiss-action.ts";
import { extendClaimAction } from "./actions/extend-claim-action.ts";
import { keepHostAction } from "./actions/keep-host-action.ts";
import { reclaimModalAction } from "./actions/reclaim-modal-action.ts";
import { reclaimStopAction } from "./actions/reclaim-stop-action.ts";
import { releaseClaimAction } from "./actions/release-claim-action.ts";
import { stopHostAction } from "./actions/stop-host-action.ts";
import { gpuCommand } from "./commands/gpu-command.ts";
import { homeOpenedEvent } from "./events/home-opened-event.ts";
import { reclaimDecisionView } from "./views/reclaim-decision-view.ts";

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
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.claimSlots, claimSlotsAction(deps));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.claimNotify, claimNotifyAction(deps));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.claimRelease, releaseClaimAction(deps));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.claimForceRelease, releaseClaimAction(deps));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.claimExtend4h, extendClaimAction(deps));
  app.action<BlockAction<ButtonAction>>(ACTION_IDS.claimStillUsing, claimStillUsingAction(deps));
  app.event("app_home_opened", homeOpenedEvent(deps));
  app.action<BlockAction<ButtonAction>>(RECLAIM_ACTION_IDS.stop, reclaimStopAction(deps));
  app.action<BlockAction<ButtonAction>>(RECLAIM_ACTION_IDS.lend, reclaimModalAction(deps, "lend"));
  app.action<BlockAction<ButtonAction>>(RECLAIM_ACTION_IDS.keep, reclaimModalAction(deps, "keep"));
  app.view<ViewSubmitAction>(RECLAIM_VIEW_IDS.lend, reclaimDecisionView(deps, "lend"));
  app.view<ViewSubmitAction>(RECLAIM_VIEW_IDS.keep, reclaimDecisionView(deps, "keep"));
}
