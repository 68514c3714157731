import { utcOffsetMinutes } from "../shared/time.ts";

/** A priced stretch of the local day, `[fromMinute, toMinute)`; `fromMinute > toMinute` crosses midnight. */
export interface TariffWindow {
  name: string;
  /** Minutes after local midnight, 0…1439. */
  fromMinute: number;
  toMinute: number;
  pricePerKWh: number;
}

/**
 * An electricity tariff in a time zone: `pricePerKWh` outside every window (a flat tariff has no
 * windows); where windows overlap, the first one listed prices the minute.
 */
export interface Tariff {
  pricePerKWh: number;
  windows: readonly TariffWindow[];
  timezone: string;
}

/** The tariff from the config's `costs.electricity`, in the team time zone. */
export function tariffOf(
  electricity: {
    price_per_kwh: number;
    windows: readonly { name: string; from: string; to: string; price_per_kwh: number }[];
  },
  timezone: string,
): Tariff {
  return {
    pricePerKWh: electricity.price_per_kwh,
    windows: electricity.windows.map((window) => ({
      name: window.name,
      fromMinute: minuteOfDay(window.from),
      toMinute: minuteOfDay(window.to),
      pricePerKWh: window.price_per_kwh,
    })),
    timezone,
  };
}

/** `HH:mm` → minutes after midnight. */
export function minuteOfDay(time: string): number {
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** The window holding a local minute of the day (`null`: the base price), and its price. */
export function priceAtMinute(
  tariff: Tariff,
  minute: number,
): { window: string | null; pricePerKWh: number } {
  for (const window of tariff.windows) {
    if (inWindow(window, minute)) return { window: window.name, pricePerKWh: window.pricePerKWh };
  }
  return { window: null, pricePerKWh: tariff.pricePerKWh };
}

/** The price in force at an instant. */
export function tariffAt(tariff: Tariff, atMs: number): { window: string | null; pricePerKWh: number } {
  const offsetMin = offsetMinutes(atMs, tariff.timezone);
  return priceAtMinute(tariff, localMinuteOf(atMs, offsetMin));
}

/**
 * How `[fromMs, toMs)` splits over the tariff's windows, in milliseconds per window name (`""` is
 * the base price), following the zone's offset through DST changes.
 */
export function tariffSplit(tariff: Tariff, fromMs: number, toMs: number): Map<string, number> {
  const split = new Map<string, number>();
  walk(tariff, fromMs, toMs, (segment, ms) =>
    split.set(segment.window, (split.get(segment.window) ?? 0) + ms),
  );
  return split;
}

/** The time-weighted mean price over `[fromMs, toMs)` (the base price for an empty span). */
export function meanTariffPrice(tariff: Tariff, fromMs: number, toMs: number): number {
  if (tariff.windows.length === 0 || toMs <= fromMs) return tariff.pricePerKWh;
  let weighted = 0;
  walk(tariff, fromMs, toMs, (segment, ms) => {
    weighted += segment.pricePerKWh * ms;
  });
  return weighted / (toMs - fromMs);
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MINUTES = 1440;

interface DaySegment {
  from: number;
  to: number;
  window: string;
  pricePerKWh: number;
}

/** Visits the pieces of `[fromMs, toMs)` that have one price, with their length in ms. */
function walk(
  tariff: Tariff,
  fromMs: number,
  toMs: number,
  visit: (segment: DaySegment, ms: number) => void,
): void {
  if (toMs <= fromMs) return;
  const segments = daySegments(tariff);
  if (segments.length === 1) {
    visit(segments[0]!, toMs - fromMs);
    return;
  }
  for (const [startMs, endMs, offsetMin] of constantOffsetChunks(fromMs, toMs, tariff.timezone)) {
    let local = localMinuteOf(startMs, offsetMin);
    let left = (endMs - startMs) / MINUTE_MS;
    while (left > 1e-9) {
      const segment = segments.find((s) => local >= s.from && local < s.to) ?? segments.at(-1)!;
      const take = Math.min(left, segment.to - local);
      visit(segment, take * MINUTE_MS);
      left -= take;
      local = segment.to >= DAY_MINUTES ? 0 : segment.to;
    }
  }
}

function inWindow(window: TariffWindow, minute: number): boolean {
  return window.fromMinute < window.toMinute
    ? minute >= window.fromMinute && minute < window.toMinute
    : minute >= window.fromMinute || minute < window.toMinute;
}

/** The local day cut at every window edge, each piece priced by the first window holding it. */
function daySegments(tariff: Tariff): DaySegment[] {
  const edges = new Set([0, DAY_MINUTES]);
  for (const window of tariff.windows) {
    edges.add(window.fromMinute);
    edges.add(window.toMinute);
  }
  const sorted = [...edges].sort((a, b) => a - b);
  return sorted.slice(0, -1).map((from, i) => {
    const price = priceAtMinute(tariff, from);
    return { from, to: sorted[i + 1]!, window: price.window ?? "", pricePerKWh: price.pricePerKWh };
  });
}

function localMinuteOf(atMs: number, offsetMin: number): number {
  const minutes = (atMs / MINUTE_MS + offsetMin) % DAY_MINUTES;
  return minutes < 0 ? minutes + DAY_MINUTES : minutes;
}

function offsetMinutes(atMs: number, zone: string): number {
  return utcOffsetMinutes(atMs, zone);
}

/**
 * `[fromMs, toMs)` cut at UTC hour boundaries and at offset changes, each piece with its zone offset
 * in minutes. Offsets change on whole minutes; a change inside an hour is found by bisection.
 */
function constantOffsetChunks(fromMs: number, toMs: number, zone: string): [number, number, number][] {
  const chunks: [number, number, number][] = [];
  let startMs = fromMs;
  while (startMs < toMs) {
    const endMs = Math.min(toMs, Math.floor(startMs / HOUR_MS) * HOUR_MS + HOUR_MS);
    const first = offsetMinutes(startMs, zone);
    const last = offsetMinutes(endMs - 1, zone);
    if (first === last) {
      chunks.push([startMs, endMs, first]);
      startMs = endMs;
      continue;
    }
    let lo = Math.floor(startMs / MINUTE_MS);
    let hi = Math.ceil(endMs / MINUTE_MS);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetMinutes(mid * MINUTE_MS, zone) === first) lo = mid;
      else hi = mid;
    }
    const changeMs = Math.max(startMs, hi * MINUTE_MS);
    chunks.push([startMs, changeMs, first]);
    startMs = changeMs;
  }
  return chunks;
}
