import type {
  App,
  BlockAction,
  ButtonAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from "@slack/bolt";
import type { BotDeps } from "../bot-deps.ts";
import {
  ACTION_IDS,
  KEEP_ACTION_IDS,
  PROCUREMENT_ACTION_IDS,
  PROCUREMENT_VIEW_IDS,
  RECLAIM_ACTION_IDS,
  RECLAIM_VIEW_IDS,
} from "../ids.ts";
import { GPU_COMMAND } from "../surface.ts";
import { claimHostAction } from "./actions/claim-host-action.ts";
import { claimNotifyAction } from "./actions/claim-notify-action.ts";
import { claimSlotsAction } from "./actions/claim-slots-action.ts";
import { claimStillUsingAction } from "./actions/claim-still-using-action.ts";
import { dismissAction } from "./actions/dismiss-action.ts";
import { doneWithMineAction } from "./actions/done-with-mine-action.ts";
import { extendClaimAction } from "./actions/extend-claim-action.ts";
import { keepHostAction } from "./actions/keep-host-action.ts";
import { preemptDeferAction } from "./actions/preempt-defer-action.ts";
import { procurementApproveAction, procurementReasonAction } from "./actions/procurement-actions.ts";
import { queueConfirmAction } from "./actions/queue-confirm-action.ts";
import { queueWaitAction } from "./actions/queue-wait-action.ts";
import { reclaimModalAction } from "./actions/reclaim-modal-action.ts";
import { reclaimStopAction } from "./actions/reclaim-stop-action.ts";
import { releaseClaimAction } from "./actions/release-claim-action.ts";
import { startHostAction } from "./actions/start-host-action.ts";
import { stopAllMineAction } from "./actions/stop-all-mine-action.ts";
import { stopHostAction } from "./actions/stop-host-action.ts";
import { gpuCommand } from "./commands/gpu-command.ts";
import { homeOpenedEvent } from "./events/home-opened-event.ts";
import { procurementReasonView, procurementRequestView } from "./views/procurement-views.ts";
import { reclaimDecisionView } from "./views/reclaim-decision-view.ts";

type ButtonListener = Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>>;
type ViewListener = Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>;

/**
 * Every command, button and modal the bot answers, in one place. Bolt runs every registered
 * listener's middleware chain on every delivery, so the buttons are one listener (and the modals
 * another) that looks the handler up by id: with twenty listeners, the chains cost more than the
 * rest of handling a click.
 */
export function registerListeners(app: App, deps: BotDeps): void {
  const buttons = new Map<string, ButtonListener>([
    [ACTION_IDS.stopHost, stopHostAction(deps, false)],
    [ACTION_IDS.stopHostForce, stopHostAction(deps, true)],
    [ACTION_IDS.doneWithMine, doneWithMineAction(deps)],
    [ACTION_IDS.stopAllMine, stopAllMineAction(deps)],
    [ACTION_IDS.startHost, startHostAction(deps)],
    ...Object.values(KEEP_ACTION_IDS).map((actionId): [string, ButtonListener] => [
      actionId,
      keepHostAction(deps),
    ]),
    [ACTION_IDS.claimHost, claimHostAction(deps)],
    [ACTION_IDS.dismiss, dismissAction()],
    [ACTION_IDS.claimSlots, claimSlotsAction(deps)],
    [ACTION_IDS.claimNotify, claimNotifyAction(deps)],
    [ACTION_IDS.claimRelease, releaseClaimAction(deps)],
    [ACTION_IDS.claimForceRelease, releaseClaimAction(deps)],
    [ACTION_IDS.claimExtend4h, extendClaimAction(deps)],
    [ACTION_IDS.claimStillUsing, claimStillUsingAction(deps)],
    [ACTION_IDS.queueWait, queueWaitAction(deps)],
    [ACTION_IDS.queueConfirm, queueConfirmAction(deps)],
    [ACTION_IDS.preemptDefer, preemptDeferAction(deps)],
    [RECLAIM_ACTION_IDS.stop, reclaimStopAction(deps)],
    [RECLAIM_ACTION_IDS.lend, reclaimModalAction(deps, "lend")],
    [RECLAIM_ACTION_IDS.keep, reclaimModalAction(deps, "keep")],
    [PROCUREMENT_ACTION_IDS.approve, procurementApproveAction(deps)],
    [PROCUREMENT_ACTION_IDS.reject, procurementReasonAction(deps, "reject")],
    [PROCUREMENT_ACTION_IDS.more, procurementReasonAction(deps, "more")],
  ]);
  const views = new Map<string, ViewListener>([
    [RECLAIM_VIEW_IDS.lend, reclaimDecisionView(deps, "lend")],
    [RECLAIM_VIEW_IDS.keep, reclaimDecisionView(deps, "keep")],
    [PROCUREMENT_VIEW_IDS.request, procurementRequestView(deps)],
    [PROCUREMENT_VIEW_IDS.reason, procurementReasonView(deps)],
  ]);
  app.command(GPU_COMMAND, gpuCommand(deps));
  app.action<BlockAction<ButtonAction>>(exactly(buttons.keys()), async (args) => {
    await buttons.get(args.action.action_id)?.(args);
  });
  app.view<ViewSubmitAction>(exactly(views.keys()), async (args) => {
    await views.get(args.view.callback_id)?.(args);
  });
  app.event("app_home_opened", homeOpenedEvent(deps));
}

/** A pattern that matches exactly one of `ids`. */
function exactly(ids: Iterable<string>): RegExp {
  const escaped = [...ids].map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^(?:${escaped.join("|")})$`);
}
