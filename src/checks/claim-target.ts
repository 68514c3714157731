import { migParts, migSlot, slotLabel } from "../shared/gpu-slot.ts";

/**
 * What a claim names: a whole host, or some of its GPUs by index. Parsing and writing the
 * `gpu-a`, `gpu-a:0`, `gpu-a:0,1`, `gpu-a:0-3` forms, and `gpu-a:0.3` for a MIG instance. Pure.
 */
export interface GpuSlots {
  host: string;
  /** GPU indexes, sorted and distinct; `null` is the whole host. */
  gpus: readonly number[] | null;
}

/** The highest GPU index a claim may name (no host has more GPUs). */
export const MAX_GPU_INDEX = 255;

const HOST_NAME = /^([A-Za-z0-9][A-Za-z0-9._-]*\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/;

export type ParsedSlots = { ok: true; slots: GpuSlots } | { ok: false; problem: "host" | "gpus" };

/** `gpu-a` → the whole host; `gpu-a:0,2-3` → GPUs 0, 2 and 3. */
export function parseSlots(text: string): ParsedSlots {
  const colon = text.indexOf(":");
  const host = colon === -1 ? text : text.slice(0, colon);
  if (host.length > 255 || !HOST_NAME.test(host)) return { ok: false, problem: "host" };
  if (colon === -1) return { ok: true, slots: { host, gpus: null } };
  const gpus = parseGpuList(text.slice(colon + 1));
  return gpus === null ? { ok: false, problem: "gpus" } : { ok: true, slots: { host, gpus } };
}

/**
 * `0`, `0,1`, `0-3`, `0,2-3` → sorted distinct indexes; `0.13` is GPU 0's MIG instance 13 (its slot, see
 * `shared/gpu-slot.ts`), and mixes with the others (`0.9,0.10`). `null` when malformed or out of range.
 */
export function parseGpuList(text: string): number[] | null {
  if (!/^\d{1,3}([-.]\d{1,3})?(,\d{1,3}([-.]\d{1,3})?)*$/.test(text)) return null;
  const indexes = new Set<number>();
  for (const part of text.split(",")) {
    if (part.includes(".")) {
      const [gpu, instance] = part.split(".").map(Number) as [number, number];
      const slot = migSlot(gpu, instance);
      if (slot === null) return null;
      indexes.add(slot);
      continue;
    }
    const [from, to = from] = part.split("-").map(Number) as [number, number?];
    if (to < from || to > MAX_GPU_INDEX) return null;
    for (let index = from; index <= to; index++) indexes.add(index);
  }
  return [...indexes].sort((a, b) => a - b);
}

/**
 * `[0,1]` → `0,1`; `[0,1,2,3]` → `0-3`; `[0,2,3,4]` → `0,2-4`. Runs of three or more whole GPUs become
 * ranges; MIG instance slots are written one by one (`0.9,0.10`).
 */
export function formatGpuList(indexes: readonly number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const whole = sorted.filter((index) => migParts(index) === null);
  const parts: string[] = [];
  let i = 0;
  while (i < whole.length) {
    let j = i;
    while (j + 1 < whole.length && whole[j + 1] === whole[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${whole[i]}-${whole[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(whole[k]));
    i = j + 1;
  }
  for (const index of sorted) if (migParts(index) !== null) parts.push(slotLabel(index));
  return parts.join(",");
}

/** `gpu-a` or `gpu-a:0-3`. */
export function slotsText(slots: GpuSlots): string {
  return slots.gpus === null ? slots.host : `${slots.host}:${formatGpuList(slots.gpus)}`;
}

/** Whether a claim on `gpuIndex` (`null`: whole host) of `host` takes any of `slots`. */
export function overlaps(slots: GpuSlots, host: string, gpuIndex: number | null): boolean {
  return slots.host === host && (gpuIndex === null || slots.gpus === null || slots.gpus.includes(gpuIndex));
}
