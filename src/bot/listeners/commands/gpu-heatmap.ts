import type { Translator } from "../../../messages/translator.ts";
import { readHeatmap, readProjectHeatmap } from "../../../usecases/ledger/read-heatmap.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { heatmapReply, unknownProjectReply } from "../../views/ledger/heatmap-reply.ts";
import type { Reply } from "../../views/reply-message.ts";
import type { ReportUpload } from "./gpu-report.ts";

/**
 * `/gpu heatmap [project=X]`: the hour-of-week heatmap of the last weeks (of one project's GPU time,
 * attributed as the cost allocation does) as a PNG for the asker's DM, said in `tr`'s language.
 */
export function gpuHeatmap(
  deps: BotDeps,
  tr: Translator,
  user: string,
  project: string | null,
): { reply: Reply; upload: ReportUpload | null } {
  const known = Object.keys(deps.config.projects);
  const named =
    project === null ? undefined : known.find((name) => name.toLowerCase() === project.toLowerCase());
  if (project !== null && named === undefined)
    return { reply: unknownProjectReply(tr, project, known), upload: null };
  const nowMs = deps.clock.now();
  const input =
    named === undefined
      ? readHeatmap(deps, nowMs)
      : readProjectHeatmap(
          {
            metrics: deps.metrics,
            config: deps.config,
            claims: deps.state.claims,
            workloads: deps.state.workloads,
          },
          nowMs,
          named,
        );
  const { reply, file } = heatmapReply(tr, input, deps.logger);
  return { reply, upload: { user, tr, ...file } };
}
