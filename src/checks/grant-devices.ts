import type { Claim } from "../domain/claim.ts";
import { migParts } from "../shared/gpu-slot.ts";

/**
 * What `CUDA_VISIBLE_DEVICES` a grant needs beyond plain GPU indexes: a whole host (every whole GPU
 * of it), or MIG instances (their `MIG-…` UUIDs). `devices` is `null` when they are not known.
 */
export interface GrantDevices {
  host: string;
  kind: "host" | "mig";
  devices: string[] | null;
}

/**
 * The devices of the granted `claims` that are whole hosts or MIG instances, per host, from each
 * host's known GPUs (slot index and UUID). A MIG instance's UUID is known only when the source
 * reported one of its own (`MIG-…`, not its GPU's). Pure.
 */
export function grantDevices(
  claims: readonly Pick<Claim, "host" | "gpuIndex">[],
  known: ReadonlyMap<string, ReadonlyArray<{ index: number; uuid: string | null }>>,
): GrantDevices[] {
  const hosts = [...new Set(claims.map((claim) => claim.host))];
  return hosts.flatMap((host): GrantDevices[] => {
    const mine = claims.filter((claim) => claim.host === host);
    const gpus = known.get(host) ?? [];
    if (mine.some((claim) => claim.gpuIndex === null)) {
      const whole = gpus.filter((gpu) => migParts(gpu.index) === null).map((gpu) => String(gpu.index));
      return [{ host, kind: "host", devices: whole.length === 0 ? null : whole }];
    }
    const mig = mine.flatMap((claim) =>
      claim.gpuIndex !== null && migParts(claim.gpuIndex) !== null ? [claim.gpuIndex] : [],
    );
    if (mig.length === 0) return [];
    const uuids = mig.map((slot) => gpus.find((gpu) => gpu.index === slot)?.uuid ?? null);
    const all = uuids.every((uuid) => uuid?.startsWith("MIG-") === true);
    return [{ host, kind: "mig", devices: all ? (uuids as string[]) : null }];
  });
}
