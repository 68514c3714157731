import { addMonths } from "../../../checks/local-day.ts";
import type { Translator } from "../../../messages/translator.ts";
import { announceWardenChange } from "../../../usecases/warden/announce-warden.ts";
import type { BotDeps } from "../../bot-deps.ts";
import type { WardenAction } from "../../commands/parse-report-warden.ts";
import type { Reply } from "../../views/reply-message.ts";
import {
  wardenChangeReply,
  wardenRefusalReply,
  wardenRosterReply,
  wardenStatusReply,
} from "../../views/warden/warden-messages.ts";

/**
 * `/gpu warden`: this month's cost warden and the next; `roster`: the roster and the coming months;
 * `swap @user` / `skip`: trade or skip this month's turn (the warden or an admin), then the channel
 * is told and the new warden gets the checklist.
 */
export function gpuWarden(deps: BotDeps, tr: Translator, user: string, action: WardenAction): Reply {
  const nowMs = deps.clock.now();
  const month = deps.wardens.monthAt(nowMs);
  switch (action.kind) {
    case "show": {
      const next = addMonths(month, 1);
      return wardenStatusReply(tr, {
        current: { month, user: deps.wardens.wardenOf(month) },
        next: { month: next, user: deps.wardens.wardenOf(next) },
      });
    }
    case "roster":
      return wardenRosterReply(tr, {
        roster: deps.config.warden.roster,
        upcoming: deps.wardens.upcoming(month, Math.max(3, deps.config.warden.roster.length + 1)),
      });
    case "swap":
    case "skip": {
      const result =
        action.kind === "swap" ? deps.wardens.swap(user, action.user, nowMs) : deps.wardens.skip(user, nowMs);
      if (!result.ok) return wardenRefusalReply(tr, result.refusal);
      announceWardenChange(deps, result.change, user);
      return wardenChangeReply(tr, result.change);
    }
    default:
      return action satisfies never;
  }
}
