/**
 * Seeded randomness for the simulated fleet. Nothing here reads `Math.random`: the same keys give
 * the same numbers on every run, so the fleet is a pure function of (seed, config, instant).
 */

const TWO_POW_32 = 4_294_967_296;

function mix(h: number, k: number): number {
  let x = Math.imul(k | 0, 0xcc9e2d51);
  x = (x << 15) | (x >>> 17);
  x = Math.imul(x, 0x1b873593);
  let y = h ^ x;
  y = (y << 13) | (y >>> 19);
  return (Math.imul(y, 5) + 0xe6546b64) | 0;
}

function finish(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Folds any safe integer seed (negative or above 2^32 included) into 32 bits without losing its high part. */
export function foldSeed(seed: number): number {
  const low = seed % TWO_POW_32;
  const high = Math.floor(seed / TWO_POW_32);
  return finish(mix(mix(0x2545f491, low), high)) | 0;
}

/** A 32-bit unsigned hash of four 32-bit integer keys (MurmurHash3 mixing). */
export function hash4(a: number, b: number, c: number, d: number): number {
  return finish(mix(mix(mix(mix(0x9747b28c, a), b), c), d));
}

/** A number in [0, 1) determined by four integer keys. */
export function unit4(a: number, b: number, c: number, d: number): number {
  return hash4(a, b, c, d) / TWO_POW_32;
}

/** A number in [-1, 1) determined by four integer keys. */
export function signed4(a: number, b: number, c: number, d: number): number {
  return (hash4(a, b, c, d) / TWO_POW_32) * 2 - 1;
}

/** mulberry32: a small, fast sequential PRNG for one-off sequences such as shuffles. Returns [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / TWO_POW_32;
  };
}

/** Fisher–Yates shuffle in place, driven by `next` (values in [0, 1)). */
export function shuffleInPlace<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const tmp = items[i]!;
    items[i] = items[j]!;
    items[j] = tmp;
  }
  return items;
}
