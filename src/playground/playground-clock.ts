import type { Clock } from "../shared/clock.ts";

interface Segment {
  realMs: number;
  simMs: number;
  rate: number;
}

/**
 * The playground's clock: runs at `rate` × real time (1, 60, 600…), pauses, jumps forward. Every
 * change starts a new segment, so the simulated instant of a past real instant can be read back
 * ({@link PlaygroundClock.simulatedAt}: the time a message was posted, as the page shows it).
 */
export class PlaygroundClock implements Clock {
  readonly #realNow: () => number;
  readonly #segments: Segment[];
  #rate: number;

  constructor(startMs: number, rate: number, realNow: () => number = Date.now) {
    this.#realNow = realNow;
    this.#rate = rate;
    this.#segments = [{ realMs: realNow(), simMs: startMs, rate }];
  }

  now(): number {
    return this.simulatedAt(this.#realNow());
  }

  /** The rate set (kept while paused). */
  get rate(): number {
    return this.#rate;
  }

  get paused(): boolean {
    return this.#current().rate === 0;
  }

  setRate(rate: number): void {
    if (!(rate > 0)) throw new Error(`clock rate must be positive, got ${rate}`);
    this.#rate = rate;
    this.#restart(this.now(), rate);
  }

  pause(): void {
    this.#restart(this.now(), 0);
  }

  resume(): void {
    this.#restart(this.now(), this.#rate);
  }

  /** Moves the clock to `simMs` (never backwards: jobs and stores assume time only grows). */
  jumpTo(simMs: number): void {
    this.#restart(Math.max(simMs, this.now()), this.#current().rate);
  }

  /** The simulated instant at real instant `realMs`. */
  simulatedAt(realMs: number): number {
    let segment = this.#segments[0] as Segment;
    for (const candidate of this.#segments) {
      if (candidate.realMs > realMs) break;
      segment = candidate;
    }
    return segment.simMs + Math.max(0, realMs - segment.realMs) * segment.rate;
  }

  #current(): Segment {
    return this.#segments.at(-1) as Segment;
  }

  #restart(simMs: number, rate: number): void {
    this.#segments.push({ realMs: this.#realNow(), simMs: Math.round(simMs), rate });
  }
}
