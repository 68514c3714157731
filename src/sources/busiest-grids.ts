import type { HostUtilHistory } from "../domain/source.ts";
import { SOME_GPU_SILENT } from "../domain/source.ts";

/**
 * Each host's busiest GPU and GPU slots with samples per step of one look-back, as they are read: rows
 * of `steps` numbers in a few large zeroed blocks, not two arrays per host. The blocks are over 32 MiB,
 * which glibc always maps on their own, so the pages a small fleet leaves untouched cost nothing and
 * the memory goes back to the system once the look-back is dropped (arrays of 8–16 KB per host left the
 * process 140–180 MB larger after a look-back of 80,000 GPUs).
 */
export interface BusiestGrids {
  /** A step's highest utilisation of one of `host`'s series (the highest of all is kept). */
  addHighest(host: string, step: number, value: number): void;
  /** A step's count of `host`'s GPU slots with samples, from one of its series (they add up). */
  addSlots(host: string, step: number, count: number): void;
  /**
   * Each host's busiest GPU per step: `NaN` where none of its slots had a sample, {@link SOME_GPU_SILENT}
   * where fewer than its most had one or none had a number; views of the blocks, not copies.
   */
  finish(fromMs: number, stepMs: number): Map<string, HostUtilHistory>;
}

/** Bytes of a block's slot counts (its utilisation block is twice as large): above glibc's mmap threshold. */
const BLOCK_BYTES = 33 * 1024 * 1024;
/** A slot-count cell's flag: the step has a highest utilisation. */
const HAS_HIGHEST = 0x8000;
const MOST_SLOTS = 0x7fff;

export function createBusiestGrids(steps: number): BusiestGrids {
  const rowsPerBlock = Math.max(1, Math.ceil(BLOCK_BYTES / (steps * 2)));
  const highestBlocks: Float32Array[] = [];
  const slotBlocks: Uint16Array[] = [];
  const rows = new Map<string, number>();
  const rowOf = (host: string): number => {
    let row = rows.get(host);
    if (row === undefined) {
      row = rows.size;
      if (row % rowsPerBlock === 0) {
        highestBlocks.push(new Float32Array(rowsPerBlock * steps));
        slotBlocks.push(new Uint16Array(rowsPerBlock * steps));
      }
      rows.set(host, row);
    }
    return row;
  };
  const cell = (row: number, step: number) => (row % rowsPerBlock) * steps + step;
  return {
    addHighest(host, step, value) {
      if (!Number.isFinite(value)) return;
      const row = rowOf(host);
      const at = cell(row, step);
      const slots = slotBlocks[Math.floor(row / rowsPerBlock)]!;
      const highest = highestBlocks[Math.floor(row / rowsPerBlock)]!;
      highest[at] = slots[at]! & HAS_HIGHEST ? Math.max(highest[at]!, value) : value;
      slots[at]! |= HAS_HIGHEST;
    },
    addSlots(host, step, count) {
      const row = rowOf(host);
      const slots = slotBlocks[Math.floor(row / rowsPerBlock)]!;
      const at = cell(row, step);
      const sum = Math.min(MOST_SLOTS, (slots[at]! & MOST_SLOTS) + count);
      slots[at] = (slots[at]! & HAS_HIGHEST) | sum;
    },
    finish(fromMs, stepMs) {
      const out = new Map<string, HostUtilHistory>();
      for (const [host, row] of rows) {
        const block = Math.floor(row / rowsPerBlock);
        const start = (row % rowsPerBlock) * steps;
        const highest = highestBlocks[block]!.subarray(start, start + steps);
        const slots = slotBlocks[block]!.subarray(start, start + steps);
        let most = 0;
        for (let i = 0; i < steps; i++) most = Math.max(most, slots[i]! & MOST_SLOTS);
        for (let i = 0; i < steps; i++) {
          const count = slots[i]! & MOST_SLOTS;
          if (count === 0) highest[i] = Number.NaN;
          else if (count < most || !(slots[i]! & HAS_HIGHEST)) highest[i] = SOME_GPU_SILENT;
        }
        out.set(host, { fromMs, stepMs, utilPct: highest });
      }
      rows.clear();
      slotBlocks.length = 0;
      return out;
    },
  };
}
