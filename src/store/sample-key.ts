/**
 * Raw samples are rowid tables whose key is `cycleId * 2^24 + entityId` (entity: a host or a GPU).
 * Cycle ids grow, so a poll cycle appends at the right edge of the B-tree as cheaply as an
 * auto-increment rowid, a cycle is one key range, and one GPU in one cycle is one key lookup.
 * Keys stay exact JavaScript numbers while cycle ids are below 2^29 (1,000 years of 60 s polls).
 */
export const ENTITY_BITS = 24;
export const ENTITY_SPAN = 2 ** ENTITY_BITS;
export const MAX_ENTITY_ID = ENTITY_SPAN - 1;

export function sampleKey(cycleId: number, entityId: number): number {
  return cycleId * ENTITY_SPAN + entityId;
}

/** First and last key of a cycle, for `BETWEEN`. */
export function cycleKeyRange(cycleId: number): [number, number] {
  return [cycleId * ENTITY_SPAN, cycleId * ENTITY_SPAN + MAX_ENTITY_ID];
}
