import type { GpuSlots } from "../../checks/claim-target.ts";
import type { Claim } from "../../domain/claim.ts";
import type { ClaimDeps } from "./claim-deps.ts";

/** On the waitlist of `slots` (`waiting`), or they are free already (`free`). */
export interface WaitResult {
  kind: "waiting" | "free";
  slots: GpuSlots;
}

function isFree(active: readonly Claim[], gpuIndex: number | null): boolean {
  if (gpuIndex === null) return active.length === 0;
  return !active.some((claim) => claim.gpuIndex === null || claim.gpuIndex === gpuIndex);
}

/**
 * "Notify me when free": puts `actor` on the waitlist of each slot (a GPU, or the whole host). When
 * everything is free already, says so instead.
 */
export function joinWaitlist(deps: ClaimDeps, request: { actor: string; slots: GpuSlots }): WaitResult {
  const { state, clock } = deps;
  const { actor, slots } = request;
  const nowMs = clock.now();
  return state.transaction((): WaitResult => {
    const active = state.claims.activeOn(slots.host, nowMs);
    const held = (slots.gpus ?? [null]).filter((gpuIndex) => !isFree(active, gpuIndex));
    if (held.length === 0) {
      return { kind: "free", slots };
    }
    for (const gpuIndex of held) {
      state.claims.waitlist.add({ host: slots.host, gpuIndex, user: actor, createdAtMs: nowMs });
    }
    state.audit.record({
      atMs: nowMs,
      actor,
      action: "claim-wait",
      host: slots.host,
      detail: { gpus: slots.gpus },
    });
    return { kind: "waiting", slots };
  });
}

/**
 * Tells everyone waiting on `host` whose slot is free now (one DM per person, naming the free
 * GPUs), and takes them off the list. Call after claims on the host end; synchronous.
 */
export function notifyWaiters(deps: ClaimDeps, host: string, nowMs: number): string[] {
  const { state, notifier } = deps;
  return state.transaction(() => {
    const waits = state.claims.waitlist.openOn(host);
    if (waits.length === 0) return [];
    const active = state.claims.activeOn(host, nowMs);
    const freeByUser = new Map<string, { ids: number[]; gpus: Array<number | null> }>();
    for (const wait of waits) {
      if (!isFree(active, wait.gpuIndex)) continue;
      const entry = freeByUser.get(wait.user) ?? { ids: [], gpus: [] };
      entry.ids.push(wait.id);
      entry.gpus.push(wait.gpuIndex);
      freeByUser.set(wait.user, entry);
    }
    for (const [user, entry] of freeByUser) {
      const gpus = entry.gpus.includes(null) ? null : (entry.gpus as number[]).sort((a, b) => a - b);
      const dm = deps.claimWords.free(user, host, gpus);
      notifier.send("chat.postMessage", { channel: user, text: dm.text, blocks: dm.blocks });
      state.claims.waitlist.markNotified(entry.ids, nowMs);
    }
    return [...freeByUser.keys()];
  });
}
