import type { Sleep } from "./outbox-sleep.ts";

/**
 * How the outbox's loop waits: idle until woken (a new message, a call finished, stop), or for a
 * time on its `sleep`, cut short when woken.
 */
export class OutboxWaker {
  /** Aborted by `wake()`: a wait for another conversation's not_before ends early. */
  #waitSignal = new AbortController();
  #wakeIdle: (() => void) | undefined;

  constructor(readonly sleep: Sleep) {}

  wake(): void {
    this.#waitSignal.abort();
    const resolve = this.#wakeIdle;
    this.#wakeIdle = undefined;
    resolve?.();
  }

  /** Resolves at the next `wake()`. */
  idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wakeIdle = resolve;
    });
  }

  /** Waits `ms` on `sleep`, less when woken or `stop` aborts. */
  async waitFor(ms: number, stop: AbortSignal): Promise<void> {
    if (this.#waitSignal.signal.aborted || stop.aborted) this.#waitSignal = new AbortController();
    await this.sleep(ms, AbortSignal.any([this.#waitSignal.signal, stop]));
  }
}
