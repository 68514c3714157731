/** At most `limit` calls of {@link Slots.run} in flight at once; the others wait their turn, in order. */
export interface Slots {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function createSlots(limit: number): Slots {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(fn) {
      if (busy >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else busy++;
      try {
        return await fn();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else busy--;
      }
    },
  };
}
