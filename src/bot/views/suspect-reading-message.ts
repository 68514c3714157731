import type { types } from "@slack/bolt";
import { slotLabel } from "../../shared/gpu-slot.ts";
import type { SuspectGpuView, SuspectReadingView } from "../../usecases/alert-words.ts";
import { escapeMrkdwn, formatWhen, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";

export type { SuspectGpuView, SuspectReadingView };

/** The one DM per GPU and episode about an implausible reading (full utilisation, no memory, idle power). */
export function suspectReadingMessage(view: SuspectReadingView): SlackMessage {
  const { host, gpus } = view;
  const bold = `*${escapeMrkdwn(host)}*`;
  const figures = gpus.map((gpu) => {
    const memory = gpu.memUsedMiB === null ? "memory unknown" : "no memory held";
    const power = gpu.powerW === null ? "" : ` at ${Math.round(gpu.powerW)} W`;
    return `GPU ${slotLabel(gpu.index)} reports ${Math.round(gpu.utilPct)} % with ${memory}${power}`;
  });
  const since = formatWhen(view.sinceMs, view.nowMs, view.timezone);
  const why =
    view.role === "owner"
      ? "You get this because you own it."
      : "You get this as cost warden: it has no owner.";
  const text =
    `❔ Suspect readings on ${bold} since *${since}*: ${figures.join("; ")}. ` +
    "This is a known driver/exporter fault; the GPU is probably idle. gpu-warden counts it neither busy nor idle: " +
    "no idle alert, no automatic stop or release, and its hours are flagged in the summary. " +
    `Check \`nvidia-smi\` on the host, or restart its driver when it is free. ${why}`;
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: truncate(text, 3000) } },
    { type: "context", elements: [{ type: "mrkdwn", text: `Times in ${escapeMrkdwn(view.timezone)}.` }] },
  ];
  const which = gpus.length === 1 ? `GPU ${slotLabel(gpus[0]?.index ?? 0)}` : `${gpus.length} GPUs`;
  return {
    text: truncate(`❔ Suspect readings on ${host}: ${which} at full utilisation with no memory`, 3000),
    blocks,
  };
}
