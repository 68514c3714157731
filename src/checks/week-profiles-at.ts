import { DAY_MS } from "../shared/clock.ts";
import { gpuOrder, sumHoursOfWeek } from "./week-hour-sums.ts";
import {
  type GpuWeekProfile,
  MIN_HISTORY_WEEKS,
  WEEK_HOURS,
  type WeekProfileHour,
  type WeekProfiles,
} from "./week-profile.ts";

/**
 * {@link buildWeekProfiles} from rollups read an hour at a time as columns, one hour-of-week at a time ({@link sumHoursOfWeek}: `at` reads an
 * hour, `null` without rollups): the same profiles, every GPU's 168 shares a view of one array, and no
 * per-GPU sums of busy and idle minutes held besides them. Pure.
 */
export function buildWeekProfilesAt(
  at: (hourMs: number) => WeekProfileHour | null,
  gpus: ReadonlyMap<number, { host: string; index: number }>,
  models: ReadonlyMap<string, string | null>,
  window: { fromMs: number; toMs: number },
  zone: string,
): WeekProfiles {
  const order = gpuOrder(gpus);
  const shares = new Float64Array(order.gpus.length * WEEK_HOURS).fill(Number.NaN);
  const { seen, firstKnownMs } = sumHoursOfWeek(at, order, window, zone, (how, slot, idleShare) => {
    shares[slot * WEEK_HOURS + how] = idleShare;
  });
  const profiles: GpuWeekProfile[] = [];
  order.gpus.forEach((gpu, slot) => {
    if (seen[slot] === 0) return;
    profiles.push({
      host: gpu.host,
      index: gpu.index,
      model: models.get(`${gpu.host}:${gpu.index}`) ?? null,
      idleShare: shares.subarray(slot * WEEK_HOURS, (slot + 1) * WEEK_HOURS),
    });
  });
  const historyDays = Number.isFinite(firstKnownMs) ? (window.toMs - firstKnownMs) / DAY_MS : 0;
  return { ...window, zone, historyDays, enough: historyDays >= MIN_HISTORY_WEEKS * 7, gpus: profiles };
}
