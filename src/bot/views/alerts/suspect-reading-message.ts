import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import type { SuspectGpuView, SuspectReadingView } from "../../../usecases/alerts/alert-words.ts";
import { emphasisBoundaries } from "../emphasis-boundaries.ts";
import { alertWhen, escapeMrkdwn, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";

export type { SuspectGpuView, SuspectReadingView };

/** The one DM per GPU and episode about an implausible reading (full utilisation, no memory, idle power). */
export function suspectReadingMessage(tr: Translator, view: SuspectReadingView): SlackMessage {
  const { host, gpus } = view;
  const figures = gpus.map((gpu) =>
    tr.t("alert.suspect.gpu", {
      gpu: slotLabel(gpu.index),
      pct: Math.round(gpu.utilPct),
      memory: tr.t(gpu.memUsedMiB === null ? "alert.suspect.memoryUnknown" : "alert.suspect.noMemory"),
      power: gpu.powerW === null ? "" : tr.t("alert.suspect.power", { watts: Math.round(gpu.powerW) }),
    }),
  );
  const text = tr.t("alert.suspect.text", {
    host: `*${escapeMrkdwn(host)}*`,
    since: alertWhen(tr, view.sinceMs, view.nowMs),
    figures: figures.join("; "),
    why: tr.t(view.role === "owner" ? "alert.suspect.owner" : "alert.suspect.warden"),
  });
  const zone = tr.t("alert.zone", { zone: escapeMrkdwn(tr.timeZone) });
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: truncate(emphasisBoundaries(text), 3000) } },
    { type: "context", elements: [{ type: "mrkdwn", text: zone }] },
  ];
  const fallback = tr.t("alert.suspect.fallback", {
    count: gpus.length,
    host,
    gpu: slotLabel(gpus[0]?.index ?? 0),
  });
  return { text: truncate(fallback, 3000), blocks };
}
