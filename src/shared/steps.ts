/** A long computation cut into steps: a generator that yields between steps and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** What a computation awaits between its steps, so that the event loop turns while it runs. */
export type Pause = () => Promise<void>;

/** Runs `steps` to the end at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs `steps`, awaiting `pause()` after every `every` of them. */
export async function paceSteps<T>(steps: Steps<T>, pause: Pause, every = 1): Promise<T> {
  for (let step = 1; ; step++) {
    const next = steps.next();
    if (next.done) return next.value;
    if (step % every === 0) await pause();
  }
}
