import { type GpuOrder, gpuOrder, sumHoursOfWeek } from "./week-hour-sums.ts";
import { WEEK_HOURS, type WeekProfileHour } from "./week-profile.ts";

/** One host's row of the heatmap: its GPUs with readings in the window, its busy share per hour-of-week. */
export interface HostWeekShares {
  host: string;
  gpus: number;
  /** 168 entries, `null` where none of its GPUs is known. */
  busyShares: Array<number | null>;
}

/**
 * Per host, {@link busyShares} of its GPUs' hour-of-week profiles ({@link buildWeekProfiles})
 * over `window`, without holding a profile per GPU: one hour-of-week at a time ({@link sumHoursOfWeek}),
 * so every share is the same number. Hosts without a known hour are left out. Pure.
 */
export function buildHostWeekShares(
  at: (hourMs: number) => WeekProfileHour | null,
  gpus: ReadonlyMap<number, { host: string; index: number }>,
  window: { fromMs: number; toMs: number },
  zone: string,
): HostWeekShares[] {
  const order = gpuOrder(gpus);
  const sums = new Float64Array(order.hosts.length * WEEK_HOURS);
  const known = new Uint16Array(order.hosts.length * WEEK_HOURS);
  const { seen } = sumHoursOfWeek(at, order, window, zone, (how, slot, idleShare) => {
    const cell = order.hostOfSlot[slot]! * WEEK_HOURS + how;
    sums[cell] = sums[cell]! + (1 - idleShare);
    known[cell]! += 1;
  });
  return hostRows(order, seen, sums, known);
}

function hostRows(
  order: GpuOrder,
  seen: Uint8Array,
  sums: Float64Array,
  known: Uint16Array,
): HostWeekShares[] {
  const gpusOf = new Uint32Array(order.hosts.length);
  for (let slot = 0; slot < seen.length; slot++) gpusOf[order.hostOfSlot[slot]!]! += seen[slot]!;
  const rows: HostWeekShares[] = [];
  order.hosts.forEach((host, h) => {
    if (gpusOf[h] === 0) return;
    const busyShares = Array.from({ length: WEEK_HOURS }, (_, how) => {
      const n = known[h * WEEK_HOURS + how]!;
      return n === 0 ? null : sums[h * WEEK_HOURS + how]! / n;
    });
    if (busyShares.some((share) => share !== null)) rows.push({ host, gpus: gpusOf[h]!, busyShares });
  });
  return rows;
}
