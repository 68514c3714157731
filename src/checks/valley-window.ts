import { DAY_MS, MINUTE_MS } from "../shared/clock.ts";
import { type Tariff, type TariffWindow, tariffAt } from "./tariff-price.ts";

/** The tariff's valley: its cheapest window, when it is cheaper than the base price; `null` otherwise. */
export function valleyOf(tariff: Tariff): TariffWindow | null {
  const cheapest = [...tariff.windows].sort((a, b) => a.pricePerKWh - b.pricePerKWh)[0];
  return cheapest !== undefined && cheapest.pricePerKWh < tariff.pricePerKWh ? cheapest : null;
}

/** Where `nowMs` stands to the valley: inside it until `endMs`, or outside until `startMs`. */
export type ValleyNow = { inside: true; endMs: number } | { inside: false; startMs: number };

/**
 * Whether `nowMs` is inside the valley window, and until when, or when it starts next; found minute
 * by minute over the next day, so DST changes in the tariff's zone are followed. Pure.
 */
export function valleyNow(tariff: Tariff, valley: TariffWindow, nowMs: number): ValleyNow {
  const inValley = (ms: number) => tariffAt(tariff, ms).window === valley.name;
  const inside = inValley(nowMs);
  const start = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  for (let ms = start; ms <= nowMs + DAY_MS + MINUTE_MS; ms += MINUTE_MS) {
    if (inValley(ms) !== inside) return inside ? { inside, endMs: ms } : { inside, startMs: ms };
  }
  return inside ? { inside, endMs: nowMs + DAY_MS } : { inside, startMs: nowMs + DAY_MS };
}
