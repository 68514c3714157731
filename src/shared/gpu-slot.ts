/**
 * GPU slots: what a host's GPUs are, one per reading, claim and stored series. A whole GPU is its index
 * (`0`…`255`); a MIG GPU instance is a slot of its own, numbered from its GPU's index and its GPU
 * instance id (dcgm-exporter's `gpu` and `GPU_I_ID`): `(gpu + 1) × 1000 + instance`, written `0.13`
 * for GPU 0, instance 13. Slot numbers keep every store row, claim and button payload a plain integer.
 */

/** Slots from this number on are MIG GPU instances. */
export const MIG_SLOT_BASE = 1000;
/** The highest GPU index that may carry MIG instances. */
export const MAX_MIG_GPU_INDEX = 63;
/** The highest GPU instance id (MIG profiles give at most 7 instances, ids below 15). */
export const MAX_MIG_INSTANCE_ID = 999;
/** The highest slot number any slot may have. */
export const MAX_SLOT_INDEX = (MAX_MIG_GPU_INDEX + 1) * MIG_SLOT_BASE + MAX_MIG_INSTANCE_ID;

/** The slot of GPU instance `instance` on GPU `gpu`; `null` when either is out of range. */
export function migSlot(gpu: number, instance: number): number | null {
  if (!Number.isInteger(gpu) || gpu < 0 || gpu > MAX_MIG_GPU_INDEX) return null;
  if (!Number.isInteger(instance) || instance < 0 || instance > MAX_MIG_INSTANCE_ID) return null;
  return (gpu + 1) * MIG_SLOT_BASE + instance;
}

/** GPU index and instance id of a MIG slot; `null` for a whole GPU. */
export function migParts(slot: number): { gpu: number; instance: number } | null {
  if (slot < MIG_SLOT_BASE) return null;
  return { gpu: Math.floor(slot / MIG_SLOT_BASE) - 1, instance: slot % MIG_SLOT_BASE };
}

/** The physical GPU a slot is on. */
export function physicalGpu(slot: number): number {
  return migParts(slot)?.gpu ?? slot;
}

/** `3` for GPU 3, `0.13` for GPU 0's instance 13. */
export function slotLabel(slot: number): string {
  const parts = migParts(slot);
  return parts === null ? String(slot) : `${parts.gpu}.${parts.instance}`;
}

/** The model of a MIG instance slot: its GPU's model and its profile, e.g. `NVIDIA A100 MIG 1g.5gb`. */
export function migModel(gpuModel: string | null, profile: string | null): string {
  return [gpuModel, "MIG", profile].filter((part) => part !== null && part !== "").join(" ");
}
