import { chooseProject } from "../../../checks/queue-project.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { ClaimTarget } from "../../../usecases/claims/claim-gpus.ts";
import { claimGpus } from "../../../usecases/claims/claim-gpus.ts";
import { claimOrWait } from "../../../usecases/queue/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { claimReply } from "../../views/claims/claim-reply.ts";
import { projectProblemReply } from "../../views/queue/priority-messages.ts";
import { claimOrWaitReply } from "../../views/queue/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";
import { joinReplyWithEta } from "./eta-replies.ts";
import { placedClaim } from "./placed-claim.ts";

/**
 * `/gpu claim <host>[:<gpus>] | <n> [<model>|gpus>=<GiB>] [for <duration>] [note…] [project=X] [--valley] [--wait]`, in the asker's
 * language (looked up before the command is answered: see `gpuCommand`).
 */
export function claimCommand(
  deps: BotDeps,
  tr: Translator,
  user: string,
  parsed: {
    target: ClaimTarget;
    durationMs: number | null;
    note: string;
    wait?: true;
    project?: string;
    placement?: { floorMiB: number; valley: boolean };
  },
): Reply {
  const { target, durationMs, note } = parsed;
  const request = { actor: user, target, durationMs, note };
  const nowMs = deps.clock.now();
  const choice = chooseProject(deps.config.projects, user, parsed.project ?? null);
  if (choice.kind !== "ok") return projectProblemReply(tr, choice);
  const project = parsed.project === undefined ? {} : { project: choice.project };
  if (parsed.placement !== undefined && target.kind === "count") {
    const placed = { ...parsed.placement, count: target.count, durationMs, note, wait: parsed.wait === true };
    return placedClaim(deps, tr, user, { ...placed, ...project });
  }
  if (parsed.wait === true) {
    const waited = claimOrWait(deps, { ...request, ...project });
    const reply = claimOrWaitReply(tr, waited, nowMs, GPU_COMMAND);
    return waited.kind === "wait" ? joinReplyWithEta(deps, tr, waited.result, reply) : reply;
  }
  const asked = parsed.project === undefined ? {} : { project: choice.project?.name ?? null };
  return claimReply(tr, claimGpus(deps, { ...request, ...asked }), nowMs, GPU_COMMAND, {
    target,
    durationMs,
    note,
  });
}
