import { DAY_MS, HOUR_MS } from "../shared/clock.ts";
import { type GpuWeekProfile, hourOfWeek, usuallyFree, type WeekProfiles } from "./week-profile.ts";

/** How far ahead an estimate looks. */
export const ETA_HORIZON_DAYS = 14;

/** An estimate from the hour-of-week profile. */
export type Estimate =
  /** Usually free from this clock hour on. */
  | { kind: "at"; atMs: number }
  /** Fewer days of history than the profile needs: no estimate. */
  | { kind: "too-little-history"; historyDays: number }
  /** The profile never shows it free within {@link ETA_HORIZON_DAYS}. */
  | { kind: "none" };

/** One request in line, as the estimate sees it: which GPUs would do, how many, for how long. */
export interface EtaDemand {
  fits: (gpu: Pick<GpuWeekProfile, "host" | "index" | "model">) => boolean;
  count: number;
  durationMs: number;
}

const keyOf = (gpu: Pick<GpuWeekProfile, "host" | "index">) => `${gpu.host}:${gpu.index}`;

/** Requests estimated at most; those further back in line get no estimate (`none`). */
export const ETA_MAX_LINE = 100;

/**
 * When each request of `line` (in line order) usually gets its GPUs: hour by hour from the next
 * clock hour, the GPUs usually free then and not held go to the requests that fit, in line order (as
 * the grant pass does); each holds its GPUs for its duration. Unknown hours never count as free.
 * `claimedUntil` (`host:index` → end of the claim on it now) keeps a claimed GPU taken until its
 * claim ends. Only the first {@link ETA_MAX_LINE} requests are estimated. Pure.
 */
export function estimateLine(
  profiles: WeekProfiles,
  line: readonly EtaDemand[],
  nowMs: number,
  claimedUntil: ReadonlyMap<string, number> = new Map(),
): Estimate[] {
  if (!profiles.enough) {
    return line.map(() => ({ kind: "too-little-history", historyDays: profiles.historyDays }));
  }
  const estimates: Estimate[] = line.map(() => ({ kind: "none" }));
  const heldUntil = new Map(claimedUntil);
  const waiting = [...line.keys()].slice(0, ETA_MAX_LINE);
  const endMs = nowMs + ETA_HORIZON_DAYS * DAY_MS;
  for (
    let t = Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS;
    t < endMs && waiting.length > 0;
    t += HOUR_MS
  ) {
    const how = hourOfWeek(t, profiles.zone);
    const free = profiles.gpus.filter(
      (gpu) => usuallyFree(gpu, how) && (heldUntil.get(keyOf(gpu)) ?? 0) <= t,
    );
    for (const i of [...waiting]) {
      const demand = line[i] as EtaDemand;
      const fitting = free.filter((gpu) => demand.fits(gpu) && (heldUntil.get(keyOf(gpu)) ?? 0) <= t);
      if (fitting.length < demand.count) continue;
      estimates[i] = { kind: "at", atMs: t };
      for (const gpu of fitting.slice(0, demand.count)) heldUntil.set(keyOf(gpu), t + demand.durationMs);
      waiting.splice(waiting.indexOf(i), 1);
    }
  }
  return estimates;
}

/** {@link estimateLine} for the last request of `line` (the others are ahead of it). Pure. */
export function estimateTurn(
  profiles: WeekProfiles,
  line: readonly EtaDemand[],
  nowMs: number,
  claimedUntil: ReadonlyMap<string, number> = new Map(),
): Estimate {
  return estimateLine(profiles, line, nowMs, claimedUntil).at(-1) ?? { kind: "none" };
}

/**
 * The next clock hour after `nowMs` in which every one of `members` (a host's GPUs, say) is usually
 * free; a member without a profile is never free. Pure.
 */
export function nextUsuallyFree(
  profiles: WeekProfiles,
  members: ReadonlyArray<{ host: string; index: number }>,
  nowMs: number,
): Estimate {
  if (!profiles.enough) return { kind: "too-little-history", historyDays: profiles.historyDays };
  const byKey = new Map(profiles.gpus.map((gpu) => [keyOf(gpu), gpu]));
  const gpus = members.map((member) => byKey.get(keyOf(member)));
  if (gpus.length === 0 || gpus.some((gpu) => gpu === undefined)) return { kind: "none" };
  const known = gpus as GpuWeekProfile[];
  const start = Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS;
  for (let t = start; t < start + 7 * DAY_MS; t += HOUR_MS) {
    const how = hourOfWeek(t, profiles.zone);
    if (known.every((gpu) => usuallyFree(gpu, how))) return { kind: "at", atMs: t };
  }
  return { kind: "none" };
}
