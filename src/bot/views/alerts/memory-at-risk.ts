import type { GpuProcess } from "../../../domain/observation.ts";
import type { Translator } from "../../../messages/translator.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import { code, escapeMrkdwn, formatGiB, truncate, truncateMiddle } from "./alert-format.ts";

/** One GPU's memory as the latest observation shows it. */
export interface GpuMemory {
  index: number;
  memUsedMiB: number | null;
  processes: readonly GpuProcess[];
}

/** Memory below this on a GPU without processes is the driver's own, not anyone's work. */
export const HELD_MIN_MIB = 1024;
const GPUS_SHOWN = 6;
const HOLDERS_SHOWN = 2;
const NAME_CHARS = 24;

/** Whether a GPU holds someone's memory: a process on it, or at least {@link HELD_MIN_MIB}. */
export function holdsMemory(gpu: GpuMemory): boolean {
  return gpu.processes.length > 0 || (gpu.memUsedMiB ?? 0) >= HELD_MIN_MIB;
}

/**
 * What a stop may lose, for its confirm dialog and the `/gpu stop` preview: `⚠️ GPU 0 holds 70.0 GiB
 * (a notebook?): unsaved work there is lost.` Names at most two holders and six GPUs, and never
 * exceeds `maxChars`; `null` when no GPU holds memory.
 */
export function memoryAtRiskText(
  tr: Translator,
  gpus: readonly GpuMemory[],
  maxChars: number,
): string | null {
  const held = gpus.filter(holdsMemory).sort((a, b) => a.index - b.index);
  if (held.length === 0) return null;
  const indexes = held.slice(0, GPUS_SHOWN).map((gpu) => slotLabel(gpu.index));
  if (held.length > GPUS_SHOWN) indexes.push(tr.t("alert.risk.more", { count: held.length - GPUS_SHOWN }));
  const known = held.filter((gpu) => gpu.memUsedMiB !== null);
  const amount =
    known.length === 0
      ? tr.t("alert.risk.memory")
      : formatGiB(known.reduce((sum, gpu) => sum + (gpu.memUsedMiB ?? 0), 0));
  const text = tr.t("alert.risk", {
    count: held.length,
    gpus: indexes.join(", "),
    amount,
    holders: holdersText(tr, held),
  });
  return truncate(text, maxChars);
}

function holdersText(tr: Translator, held: readonly GpuMemory[]): string {
  const names: string[] = [];
  for (const gpu of held) {
    for (const process of gpu.processes) {
      const user = process.user === null ? "" : `${escapeMrkdwn(truncate(process.user, 16))}: `;
      const name = `${user}${code(truncateMiddle(process.name, NAME_CHARS))}`;
      if (!names.includes(name)) names.push(name);
    }
  }
  if (names.length === 0) return tr.t("alert.risk.notebook");
  const shown = names.slice(0, HOLDERS_SHOWN);
  if (names.length > HOLDERS_SHOWN)
    shown.push(tr.t("alert.risk.more", { count: names.length - HOLDERS_SHOWN }));
  return shown.join(", ");
}
