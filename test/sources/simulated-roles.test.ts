import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assignRoles, roleCounts, simulatedHostName } from "../../src/sources/simulated-roles.ts";

describe("simulated roles", () => {
  it("gives small fleets the notable roles first, one each", () => {
    assert.deepEqual(roleCounts(1), {
      training: 1,
      interactive: 0,
      notebook: 0,
      forgotten: 0,
      flaky: 0,
      inference: 0,
    });
    assert.deepEqual(roleCounts(3), {
      training: 1,
      interactive: 0,
      notebook: 1,
      forgotten: 1,
      flaky: 0,
      inference: 0,
    });
    assert.deepEqual(roleCounts(6), {
      training: 1,
      interactive: 1,
      notebook: 1,
      forgotten: 1,
      flaky: 1,
      inference: 1,
    });
    assert.deepEqual(roleCounts(12), {
      training: 4,
      interactive: 2,
      notebook: 2,
      forgotten: 2,
      flaky: 1,
      inference: 1,
    });
  });

  it("keeps every role and the counts adding up for every fleet size", () => {
    for (let hosts = 6; hosts <= 10_000; hosts += hosts < 100 ? 1 : 997) {
      const counts = Object.values(roleCounts(hosts));
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        hosts,
      );
      assert.ok(
        counts.every((n) => n >= 1),
        `${hosts} hosts`,
      );
    }
    assert.deepEqual(roleCounts(10_000), {
      training: 4998,
      interactive: 1500,
      notebook: 900,
      forgotten: 901,
      flaky: 900,
      inference: 801,
    });
  });

  it("shuffles roles by seed, deterministically", () => {
    assert.deepEqual(assignRoles(12, 7), assignRoles(12, 7));
    assert.notDeepEqual(assignRoles(12, 7), assignRoles(12, 8));
    assert.deepEqual([...assignRoles(12, 7)].sort(), [...assignRoles(12, 8)].sort());
  });

  it("names hosts like a spreadsheet's columns, then by number", () => {
    assert.equal(simulatedHostName(0, 12), "gpu-a");
    assert.equal(simulatedHostName(25, 30), "gpu-z");
    assert.equal(simulatedHostName(26, 30), "gpu-aa");
    assert.equal(simulatedHostName(51, 60), "gpu-az");
    assert.equal(simulatedHostName(52, 60), "gpu-ba");
    assert.equal(simulatedHostName(701, 702), "gpu-zz");
    assert.equal(simulatedHostName(0, 703), "node-0001");
    assert.equal(simulatedHostName(41, 1000), "node-0042");
    assert.equal(simulatedHostName(9_999, 10_000), "node-10000");
  });
});
