import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  monthOf,
  planSkip,
  planSwap,
  rosterWarden,
  type TurnPlan,
  upcomingWardens,
  wardenOf,
} from "../../src/checks/warden-rotation.ts";

const [ALICE, BOB, CAROL] = ["UALICE1", "UBOB22", "UCAROL3"] as const;
const ROSTER = [ALICE, BOB, CAROL];

function apply(overrides: Map<string, string>, plan: TurnPlan): Map<string, string> {
  assert.ok(plan.ok, plan.ok ? "" : plan.problem);
  const next = new Map(overrides);
  for (const change of plan.changes) next.set(change.month, change.user);
  return next;
}

const names = (overrides: Map<string, string>, from: string, count: number) =>
  upcomingWardens(ROSTER, overrides, from, count).map((turn) =>
    turn.user === ALICE ? "alice" : turn.user === BOB ? "bob" : turn.user === CAROL ? "carol" : turn.user,
  );

/** The roster's warden for the month containing `atMs` in `timezone`. */
function wardenForMonth(roster: readonly string[], atMs: number, timezone: string): string | null {
  return rosterWarden(roster, monthOf(atMs, timezone));
}

describe("the roster's warden of a moment's month", () => {
  it("rotates through the roster one calendar month at a time, in the team time zone", () => {
    const dec = wardenForMonth(ROSTER, Date.UTC(2026, 11, 15), "UTC");
    const jan = wardenForMonth(ROSTER, Date.UTC(2027, 0, 15), "UTC");
    const feb = wardenForMonth(ROSTER, Date.UTC(2027, 1, 15), "UTC");
    const mar = wardenForMonth(ROSTER, Date.UTC(2027, 2, 15), "UTC");
    assert.deepEqual(new Set([dec, jan, feb]), new Set(ROSTER));
    assert.equal(mar, dec);
    // 23:30 UTC on 31 December is already January in Berlin.
    assert.equal(wardenForMonth(ROSTER, Date.UTC(2026, 11, 31, 23, 30), "Europe/Berlin"), jan);
    assert.equal(wardenForMonth(ROSTER, Date.UTC(2026, 11, 31, 23, 30), "UTC"), dec);
    assert.equal(wardenForMonth([], Date.UTC(2026, 11, 15), "UTC"), null);
    assert.equal(monthOf(Date.UTC(2026, 11, 31, 23, 30), "Europe/Berlin"), "2027-01");
  });

  it("takes the roster in order, wrapping: January 2026 is the first's", () => {
    assert.deepEqual(names(new Map(), "2026-01", 7), [
      "alice",
      "bob",
      "carol",
      "alice",
      "bob",
      "carol",
      "alice",
    ]);
    assert.equal(rosterWarden([BOB], "2031-07"), BOB);
  });
});

describe("skips and swaps", () => {
  it("skip: the next in order takes this month and the skipper takes theirs; the order goes on", () => {
    const skipped = apply(new Map(), planSkip(ROSTER, new Map(), "2026-01"));
    assert.deepEqual(names(skipped, "2026-01", 6), ["bob", "alice", "carol", "alice", "bob", "carol"]);
  });

  it("swap: someone else takes this month; the warden takes that person's next turn", () => {
    const swapped = apply(new Map(), planSwap(ROSTER, new Map(), "2026-01", CAROL));
    assert.deepEqual(names(swapped, "2026-01", 6), ["carol", "bob", "alice", "alice", "bob", "carol"]);
  });

  it("skips and swaps across months compose; every turn stays with someone", () => {
    let overrides = new Map<string, string>();
    overrides = apply(overrides, planSkip(ROSTER, overrides, "2026-01"));
    overrides = apply(overrides, planSwap(ROSTER, overrides, "2026-03", BOB));
    assert.deepEqual(names(overrides, "2026-01", 7), [
      "bob",
      "alice",
      "bob",
      "alice",
      "carol",
      "carol",
      "alice",
    ]);
    // Carol skips May, but June is hers too: the next different warden is Alice in July.
    overrides = apply(overrides, planSkip(ROSTER, overrides, "2026-05"));
    assert.deepEqual(names(overrides, "2026-01", 8), [
      "bob",
      "alice",
      "bob",
      "alice",
      "alice",
      "carol",
      "carol",
      "bob",
    ]);
  });

  it("swapping with someone off the roster gives them this month only", () => {
    const plan = planSwap(ROSTER, new Map(), "2026-02", "UDAVE44");
    assert.deepEqual(plan, { ok: true, changes: [{ month: "2026-02", user: "UDAVE44" }] });
    assert.equal(wardenOf(ROSTER, apply(new Map(), plan), "2026-02"), "UDAVE44");
  });

  it("refuses what cannot be done, saying why", () => {
    assert.deepEqual(planSwap(ROSTER, new Map(), "2026-01", ALICE), {
      ok: false,
      problem: "already-warden",
    });
    assert.deepEqual(planSkip([ALICE], new Map(), "2026-01"), {
      ok: false,
      problem: "nobody-else",
    });
    assert.deepEqual(planSkip([], new Map(), "2026-01"), {
      ok: false,
      problem: "no-roster",
    });
  });
});
