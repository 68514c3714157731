import type { OutboxStore } from "../../store/outbox-store.ts";

/**
 * Resolves once nothing is pending (the worker calls every function in `drains` when it finds the
 * outbox empty); rejects after `timeoutMs` naming what is left.
 */
export function waitForDrain(
  outbox: Pick<OutboxStore, "pendingCount" | "next">,
  drains: Set<() => void>,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (outbox.pendingCount() === 0) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      drains.delete(done);
      const head = outbox.next();
      reject(
        new Error(
          `outbox not drained after ${timeoutMs} ms: ${outbox.pendingCount()} pending, head ${head?.method} #${head?.id} (${head?.attempts} attempts)`,
        ),
      );
    }, timeoutMs);
    function done() {
      clearTimeout(timer);
      resolve();
    }
    drains.add(done);
  });
}
