interface Entry {
  atMs: number;
  seq: number;
  run: () => void;
}

/** A min-heap of callbacks by time, then by insertion order (deterministic for equal times). */
export class EventQueue {
  readonly #heap: Entry[] = [];
  #seq = 0;

  schedule(atMs: number, run: () => void): void {
    const heap = this.#heap;
    heap.push({ atMs, seq: this.#seq++, run });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** Runs every callback due at or before `nowMs`, including ones they schedule for then. */
  runDue(nowMs: number): void {
    while (this.#heap.length > 0 && this.#heap[0]!.atMs <= nowMs) this.#pop().run();
  }

  #pop(): Entry {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && before(heap[left]!, heap[least]!)) least = left;
        if (right < heap.length && before(heap[right]!, heap[least]!)) least = right;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least]!, heap[i]!];
        i = least;
      }
    }
    return top;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
}
