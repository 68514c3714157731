import { foldSeed, hash4, mulberry32 } from "../sources/simulated-random.ts";

/** A seeded stream of numbers in [0, 1) with the draws the team simulation needs. */
export class Rng {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  /**
   * A stream keyed by the run's seed and up to three integers: the same keys give the same stream
   * whatever else the simulation did before (so a person's day is the same under every policy).
   */
  static keyed(seed: number, a: number, b = 0, c = 0): Rng {
    return new Rng(hash4(foldSeed(seed), a, b, c) | 0);
  }

  next(): number {
    return this.#next();
  }

  chance(p: number): boolean {
    return this.#next() < p;
  }

  between(range: readonly [number, number]): number {
    return range[0] + this.#next() * (range[1] - range[0]);
  }

  /** An integer in [from, to], both included. */
  int(range: readonly [number, number]): number {
    return Math.floor(range[0] + this.#next() * (range[1] - range[0] + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.#next() * items.length)]!;
  }

  /** Log-uniform in [from, to]: as many short runs between 1 and 2 h as long ones between 24 and 48 h. */
  logUniform(from: number, to: number): number {
    return Math.exp(Math.log(from) + this.#next() * (Math.log(to) - Math.log(from)));
  }

  /** Log-normal with this median and σ (natural log), by Box–Muller. */
  logNormal(median: number, sigma: number): number {
    const u = Math.max(this.#next(), 1e-12);
    const v = this.#next();
    return median * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  }
}
