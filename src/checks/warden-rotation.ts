import { localParts } from "../shared/time.ts";
import { addMonths } from "./local-day.ts";

/**
 * The monthly cost warden. The roster takes turns one calendar month each, in order, wrapping
 * around (month `y*12 + m` goes to `roster[(y*12 + m) % n]`); swaps and skips are stored as
 * per-month overrides. A swap or a skip exchanges two turns, so nobody gains or loses one:
 * - swap: someone else takes this month, and the warden takes that person's next turn;
 * - skip: the next warden in order takes this month, and the skipper takes their turn.
 */

/** Per-month overrides: `YYYY-MM` → Slack user id. */
export type WardenOverrides = ReadonlyMap<string, string>;

/** A month's warden after a change. */
export interface TurnChange {
  month: string;
  user: string;
}

/** Why a swap or skip cannot be made: no roster, the user already has the month, nobody else to take it. */
export type TurnProblem = "no-roster" | "already-warden" | "nobody-else";

export type TurnPlan = { ok: true; changes: TurnChange[] } | { ok: false; problem: TurnProblem };

/** `YYYY-MM` of `atMs` in `timezone`. */
export function monthOf(atMs: number, timezone: string): string {
  const { year, month } = localParts(atMs, timezone);
  return `${year}-${String(month).padStart(2, "0")}`;
}

/** The roster's turn for `month` without overrides; `null` with an empty roster. */
export function rosterWarden(roster: readonly string[], month: string): string | null {
  if (roster.length === 0) return null;
  const [year, m] = month.split("-").map(Number) as [number, number];
  return roster[(year * 12 + m - 1) % roster.length] ?? null;
}

/** The warden of `month`: its override, else the roster's turn. */
export function wardenOf(
  roster: readonly string[],
  overrides: WardenOverrides,
  month: string,
): string | null {
  return overrides.get(month) ?? rosterWarden(roster, month);
}

/** The wardens of `count` months from `fromMonth` on. */
export function upcomingWardens(
  roster: readonly string[],
  overrides: WardenOverrides,
  fromMonth: string,
  count: number,
): { month: string; user: string | null; changed: boolean }[] {
  return Array.from({ length: count }, (_, i) => {
    const month = addMonths(fromMonth, i);
    return { month, user: wardenOf(roster, overrides, month), changed: overrides.has(month) };
  });
}

/** `user` takes `month`; the month's warden takes `user`'s next turn (if `user` has one coming). */
export function planSwap(
  roster: readonly string[],
  overrides: WardenOverrides,
  month: string,
  user: string,
): TurnPlan {
  const current = wardenOf(roster, overrides, month);
  if (current === null) return { ok: false, problem: "no-roster" };
  if (current === user) return { ok: false, problem: "already-warden" };
  const theirTurn = nextTurn(roster, overrides, month, (warden) => warden === user);
  const changes: TurnChange[] = [{ month, user }];
  if (theirTurn !== null) changes.push({ month: theirTurn, user: current });
  return { ok: true, changes };
}

/** The month's warden is away: the next warden in order takes it, and the skipper takes their turn. */
export function planSkip(roster: readonly string[], overrides: WardenOverrides, month: string): TurnPlan {
  const current = wardenOf(roster, overrides, month);
  if (current === null) return { ok: false, problem: "no-roster" };
  const next = nextTurn(roster, overrides, month, (warden) => warden !== current);
  if (next === null) return { ok: false, problem: "nobody-else" };
  const nextWarden = wardenOf(roster, overrides, next)!;
  return {
    ok: true,
    changes: [
      { month, user: nextWarden },
      { month: next, user: current },
    ],
  };
}

/** The first month after `month` whose warden matches, within a few turns of the roster. */
function nextTurn(
  roster: readonly string[],
  overrides: WardenOverrides,
  month: string,
  matches: (warden: string) => boolean,
): string | null {
  const horizon = Math.max(roster.length, 1) * 2 + overrides.size;
  for (let i = 1; i <= horizon; i++) {
    const candidate = addMonths(month, i);
    const warden = wardenOf(roster, overrides, candidate);
    if (warden !== null && matches(warden)) return candidate;
  }
  return null;
}
