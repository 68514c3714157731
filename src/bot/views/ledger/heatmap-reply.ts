import type { Translator } from "../../../messages/translator.ts";
import { type HeatmapInput, renderHeatmap } from "../../../reports/heatmap-chart.ts";
import type { Logger } from "../../../shared/logger.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { type Reply, textReply } from "../reply-message.ts";

/** `/gpu heatmap [project=X]`: the ephemeral answer and the PNG to upload to the asker's DM. */
export function heatmapReply(
  tr: Translator,
  input: HeatmapInput,
  logger: Pick<Logger, "warn">,
): { reply: Reply; file: { filename: string; title: string; content: Buffer; comment: string } } {
  const chart = renderHeatmap(input, { language: tr.language, logger });
  const stem = input.project === undefined ? "gpu-heatmap" : `gpu-heatmap_${input.project}`;
  const reply =
    input.project !== undefined && input.rows.length === 0
      ? tr.t("heatmap.command.noUse", { project: escapeMrkdwn(input.project) })
      : tr.t("heatmap.command.sent", { title: chart.title });
  return {
    reply: textReply(reply),
    file: { filename: `${stem}.png`, title: chart.title, content: chart.png, comment: chart.altText },
  };
}

/** `heatmap project=X` naming no configured project. */
export function unknownProjectReply(tr: Translator, project: string, known: readonly string[]): Reply {
  return textReply(
    tr.t("heatmap.command.unknownProject", {
      project: escapeMrkdwn(project),
      known: known.length === 0 ? "—" : known.map((name) => `\`${name}\``).join(", "),
    }),
  );
}
