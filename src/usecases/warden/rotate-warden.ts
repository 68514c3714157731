import {
  monthOf,
  planSkip,
  planSwap,
  type TurnChange,
  type TurnPlan,
  upcomingWardens,
  wardenOf,
} from "../../checks/warden-rotation.ts";
import type { Config } from "../../config/schema.ts";
import type { AuditStore } from "../../store/audit-store.ts";
import type { WardenStore } from "../../store/warden-store.ts";
import type { WardenLookup } from "../ports.ts";

/** A swap or a skip that was made: who has this month now, and whose later turn changed. */
export interface WardenChange {
  kind: "swap" | "skip";
  month: string;
  /** This month's warden before and after. */
  from: string;
  to: string;
  /** The later month the previous warden takes over, when there is one. */
  laterTurn: TurnChange | null;
}

/** Why a swap or skip was refused: no roster, not the warden or an admin, or the plan's problem. */
export type WardenRefusal =
  | { reason: "no-roster" }
  | { reason: "not-allowed"; kind: "swap" | "skip"; warden: string; admins: readonly string[] }
  | { reason: "already-warden" | "nobody-else"; kind: "swap" | "skip" };

export type WardenChangeResult = { ok: true; change: WardenChange } | { ok: false; refusal: WardenRefusal };

/**
 * The monthly cost warden with the roster from the config and the swaps and skips from the store.
 * It is the bot's {@link WardenLookup}: alerts escalate to, and stops are authorised for, the
 * warden of the month in the team time zone.
 */
export interface WardenRotation extends WardenLookup {
  /** `YYYY-MM` of `atMs` in the team time zone. */
  monthAt(atMs: number): string;
  wardenOf(month: string): string | null;
  /** The wardens of `count` months from `fromMonth` on; `changed` marks a swap or skip. */
  upcoming(fromMonth: string, count: number): { month: string; user: string | null; changed: boolean }[];
  /** `user` takes this month's turn; the warden takes theirs. Only the warden or an admin may. */
  swap(actor: string, user: string, atMs: number): WardenChangeResult;
  /** This month's warden is away: the next in order takes it. Only the warden or an admin may. */
  skip(actor: string, atMs: number): WardenChangeResult;
}

export function createWardenRotation(deps: {
  config: Pick<Config, "warden" | "team" | "slack">;
  store: WardenStore;
  audit: Pick<AuditStore, "record">;
}): WardenRotation {
  const { config, store, audit } = deps;
  const roster = config.warden.roster;
  const zone = config.team.timezone;
  let overrides: Map<string, string> | null = null;
  const current = () => {
    overrides ??= new Map(store.turns().map((turn) => [turn.month, turn.user]));
    return overrides;
  };

  const apply = (
    kind: "swap" | "skip",
    actor: string,
    atMs: number,
    plan: (month: string) => TurnPlan,
  ): WardenChangeResult => {
    const month = monthOf(atMs, zone);
    const warden = wardenOf(roster, current(), month);
    if (warden === null) {
      return { ok: false, refusal: { reason: "no-roster" } };
    }
    if (actor !== warden && !config.slack.admins.includes(actor)) {
      return { ok: false, refusal: { reason: "not-allowed", kind, warden, admins: config.slack.admins } };
    }
    const planned = plan(month);
    if (!planned.ok) {
      return {
        ok: false,
        refusal:
          planned.problem === "no-roster" ? { reason: "no-roster" } : { reason: planned.problem, kind },
      };
    }
    store.save(planned.changes.map((change) => ({ ...change, reason: kind, actor, atMs })));
    overrides = null;
    const to = planned.changes[0]!.user;
    const laterTurn = planned.changes[1] ?? null;
    audit.record({
      atMs,
      actor,
      action: `warden-${kind}`,
      host: null,
      detail: { month, from: warden, to, laterTurn },
    });
    return { ok: true, change: { kind, month, from: warden, to, laterTurn } };
  };

  return {
    current: (atMs) => wardenOf(roster, current(), monthOf(atMs, zone)),
    monthAt: (atMs) => monthOf(atMs, zone),
    wardenOf: (month) => wardenOf(roster, current(), month),
    upcoming: (fromMonth, count) => upcomingWardens(roster, current(), fromMonth, count),
    swap: (actor, user, atMs) =>
      apply("swap", actor, atMs, (month) => planSwap(roster, current(), month, user)),
    skip: (actor, atMs) => apply("skip", actor, atMs, (month) => planSkip(roster, current(), month)),
  };
}
