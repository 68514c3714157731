/** A standing reservation as configured (`reservations:`). */
export interface StandingEntry {
  user: string;
  gpus: string;
  every: string;
  from: string;
  to: string;
}

const WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/**
 * Pairs of standing reservations that hold a GPU at the same time of the same weekday: the same
 * host, GPUs in common (a whole host shares all of them), a common day, overlapping windows. Each
 * pair is `[earlier index, later index]`.
 */
export function overlappingReservations(entries: readonly StandingEntry[]): [number, number][] {
  const parsed = entries.map((entry) => ({
    host: entry.gpus.split(":")[0]!.toLowerCase(),
    gpus: gpusOf(entry.gpus),
    days: daysOf(entry.every),
    fromMin: minutesOf(entry.from),
    toMin: minutesOf(entry.to),
  }));
  const pairs: [number, number][] = [];
  parsed.forEach((a, i) => {
    parsed.slice(0, i).forEach((b, j) => {
      if (a.host !== b.host || a.fromMin >= b.toMin || b.fromMin >= a.toMin) return;
      if (![...a.days].some((day) => b.days.has(day))) return;
      if (a.gpus !== null && b.gpus !== null && ![...a.gpus].some((gpu) => b.gpus?.has(gpu))) return;
      pairs.push([j, i]);
    });
  });
  return pairs;
}

function gpusOf(text: string): Set<number> | null {
  const list = text.split(":")[1];
  if (list === undefined) return null;
  const gpus = new Set<number>();
  for (const part of list.split(",")) {
    const [from, to = from] = part.split("-").map(Number) as [number, number?];
    for (let gpu = from; gpu <= (to ?? from); gpu++) gpus.add(gpu);
  }
  return gpus;
}

function daysOf(every: string): Set<string> {
  if (every === "daily") return new Set(WEEK);
  if (every === "weekdays") return new Set(WEEK.slice(0, 5));
  if (every === "weekends") return new Set(WEEK.slice(5));
  return new Set(every.split(","));
}

function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return h * 60 + m;
}
