import type { Translator } from "../../../messages/translator.ts";
import { slotsProblem } from "../../../usecases/claims/claim-gpus.ts";
import { canonicalHost } from "../../../usecases/fleet/canonical-host.ts";
import { cancelReservation, listReservations, reserveGpus } from "../../../usecases/queue/reservations.ts";
import type { BotDeps } from "../../bot-deps.ts";
import type { ReserveAction } from "../../commands/parse-reserve.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { claimProblemIn } from "../../views/claims/claim-problem-words.ts";
import { commandErrorReply } from "../../views/command-error.ts";
import {
  reserveCancelReply,
  reserveListReply,
  reserveProblemText,
  reserveReply,
} from "../../views/queue/reserve-reply.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu reserve <gpus> <when> <hours> [note]`, `/gpu reserve list`, `/gpu reserve cancel <id>`. */
export function reserveCommand(deps: BotDeps, tr: Translator, user: string, action: ReserveAction): Reply {
  const nowMs = deps.clock.now();
  switch (action.kind) {
    case "list":
      return reserveListReply(tr, listReservations(deps), nowMs, GPU_COMMAND);
    case "cancel":
      return reserveCancelReply(tr, cancelReservation(deps, user, action.id), GPU_COMMAND);
    case "make": {
      const slots = { ...action.slots, host: canonicalHost(deps, action.slots.host) };
      const problem = slotsProblem(deps, slots, nowMs);
      if (problem !== null) return commandErrorReply(tr, claimProblemIn(tr, problem), "reserve", GPU_COMMAND);
      return reserveReply(tr, reserveGpus(deps, { ...action, slots, actor: user }), nowMs);
    }
    case "invalid":
      return commandErrorReply(tr, reserveProblemText(tr, action.problem), "reserve", GPU_COMMAND);
    default:
      return action satisfies never;
  }
}
