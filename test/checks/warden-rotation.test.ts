import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { wardenForMonth } from "../../src/checks/warden-rotation.ts";

describe("wardenForMonth", () => {
  it("rotates through the roster one calendar month at a time, in the team time zone", () => {
    const roster = ["UALICE1", "UBOB22", "UCAROL3"];
    const dec = wardenForMonth(roster, Date.UTC(2026, 11, 15), "UTC");
    const jan = wardenForMonth(roster, Date.UTC(2027, 0, 15), "UTC");
    const feb = wardenForMonth(roster, Date.UTC(2027, 1, 15), "UTC");
    const mar = wardenForMonth(roster, Date.UTC(2027, 2, 15), "UTC");
    assert.deepEqual(new Set([dec, jan, feb]), new Set(roster));
    assert.equal(mar, dec);
    // 23:30 UTC on 31 December is already January in Berlin.
    assert.equal(wardenForMonth(roster, Date.UTC(2026, 11, 31, 23, 30), "Europe/Berlin"), jan);
    assert.equal(wardenForMonth(roster, Date.UTC(2026, 11, 31, 23, 30), "UTC"), dec);
    assert.equal(wardenForMonth([], Date.UTC(2026, 11, 15), "UTC"), null);
  });
});
