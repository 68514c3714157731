import type { ProjectChoice } from "../../../checks/queue-project.ts";
import type { Translator } from "../../../messages/translator.ts";
import { mention } from "../../../usecases/power/action-text.ts";
import type { QueueView } from "../../../usecases/queue/queue-requests.ts";
import { type Reply, section, textReply } from "../reply-message.ts";

/** The most requests the priority section names (Slack's section text limit). */
const SHOWN = 40;

/**
 * `/gpu queue` with projects: the list as the queue view renders it, then each waiting request's
 * priority and project, in line order. Unchanged when nobody waits with a project or a priority.
 */
export function withPriorities(tr: Translator, reply: Reply, view: QueueView): Reply {
  const waiting = view.waiting.slice(0, SHOWN);
  if (!waiting.some(({ request }) => request.project !== null || request.priority !== 0)) return reply;
  const lines = waiting.map(({ request, position }) =>
    tr.t("priority.entry", {
      position,
      who: mention(request.user),
      priority: request.priority,
      project:
        request.project === null ? tr.t("project.none") : tr.t("priority.project", { name: request.project }),
    }),
  );
  const text = [tr.t("priority.heading"), ...lines].join("\n");
  return { text: `${reply.text}\n${text}`.slice(0, 3000), blocks: [...(reply.blocks ?? []), section(text)] };
}

/** The answer to `project=X` naming a project that is not the person's. */
export function projectProblemReply(tr: Translator, choice: Exclude<ProjectChoice, { kind: "ok" }>): Reply {
  return choice.kind === "unknown"
    ? textReply(
        tr.t("project.unknown", {
          asked: choice.asked,
          count: choice.known.length,
          known: choice.known.map((name) => `\`${name}\``).join(", "),
        }),
      )
    : textReply(tr.t("project.notMember", { project: choice.asked }));
}
