/** The only way code learns the time. Instants are epoch milliseconds (UTC). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told: tests, the simulator and the playground drive it. */
export class ManualClock implements Clock {
  #nowMs: number;

  constructor(startMs: number) {
    this.#nowMs = startMs;
  }

  now(): number {
    return this.#nowMs;
  }

  set(ms: number): void {
    this.#nowMs = ms;
  }

  advance(ms: number): number {
    this.#nowMs += ms;
    return this.#nowMs;
  }
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
