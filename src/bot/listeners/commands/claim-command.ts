import { chooseProject } from "../../../checks/queue-project.ts";
import type { ClaimTarget } from "../../../usecases/claim-gpus.ts";
import { claimGpus } from "../../../usecases/claim-gpus.ts";
import { claimOrWait } from "../../../usecases/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { claimReply } from "../../views/claim-reply.ts";
import { projectProblemReply } from "../../views/priority-messages.ts";
import { claimOrWaitReply } from "../../views/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu claim <host>[:<gpus>] | <n> [<model>] [for <duration>] [note…] [project=X] [--wait]`. */
export function claimCommand(
  deps: BotDeps,
  user: string,
  parsed: { target: ClaimTarget; durationMs: number | null; note: string; wait?: true; project?: string },
): Reply {
  const { target, durationMs, note } = parsed;
  const request = { actor: user, target, durationMs, note };
  const choice = chooseProject(deps.config.projects, user, parsed.project ?? null);
  if (choice.kind !== "ok") return projectProblemReply(deps.readers.person(user), choice);
  const project = parsed.project === undefined ? {} : { project: choice.project };
  if (parsed.wait === true)
    return claimOrWaitReply(claimOrWait(deps, { ...request, ...project }), GPU_COMMAND);
  return claimReply(claimGpus(deps, request), GPU_COMMAND, { target, durationMs, note });
}
