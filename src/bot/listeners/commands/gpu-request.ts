import type { AckFn, RespondArguments, SlashCommand } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { chooseProject } from "../../../checks/queue-project.ts";
import type { Translator } from "../../../messages/translator.ts";
import { todayLocal } from "../../../usecases/ledger/ledger-report.ts";
import { readProjectUse } from "../../../usecases/procurement/procurement-facts.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { requestLoadingModal, requestModal } from "../../views/procurement/procurement-modal.ts";
import { projectProblemReply } from "../../views/queue/priority-messages.ts";

/**
 * `/gpu request [<project>]`: acks at once and opens the form at once (while its `trigger_id`
 * lasts), then fills it in with the project's (default: the person's) last three months of use. A
 * project the person is not in is answered as `project=X` is.
 */
export async function gpuRequest(
  deps: BotDeps,
  tr: Translator,
  command: SlashCommand,
  asked: string | null,
  io: { ack: AckFn<string | RespondArguments>; client: WebClient },
): Promise<void> {
  const choice = chooseProject(deps.config.projects, command.user_id, asked);
  if (choice.kind !== "ok") {
    await io.ack({ response_type: "ephemeral", ...projectProblemReply(tr, choice) });
    return;
  }
  await io.ack();
  const opened = await io.client.views.open({
    trigger_id: command.trigger_id,
    view: requestLoadingModal(tr),
  });
  const project = choice.project?.name ?? null;
  const reportDeps = {
    ...deps.costLedger,
    claims: deps.state.claims,
    queue: deps.state.queue,
    workloads: deps.state.workloads,
    config: deps.config,
  };
  const use = project === null ? [] : readProjectUse(reportDeps, project);
  const thisMonth = todayLocal(deps.costLedger).slice(0, 7);
  const view = requestModal(tr, { project, use, thisMonth });
  const viewId = opened.view?.id;
  if (viewId === undefined) throw new Error("views.open answered without the view's id");
  await io.client.views.update({ view_id: viewId, view });
}
