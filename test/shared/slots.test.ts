import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createSlots } from "../../src/shared/slots.ts";

describe("createSlots", () => {
  test("runs at most `limit` calls at once, the others in the order they came, and frees a slot on a failure", async () => {
    const slots = createSlots(2);
    const releases: (() => void)[] = [];
    const started: string[] = [];
    const call = (name: string, fails = false) =>
      slots.run(async () => {
        started.push(name);
        await new Promise<void>((resolve) => releases.push(resolve));
        if (fails) throw new Error(`${name} failed`);
        return name;
      });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const results = [call("a", true), call("b"), call("c"), call("d")];
    await settle();
    assert.deepEqual(started, ["a", "b"]);
    releases[0]!();
    await assert.rejects(results[0]!, /a failed/);
    await settle();
    assert.deepEqual(started, ["a", "b", "c"]);
    releases[1]!();
    releases[2]!();
    await settle();
    assert.deepEqual(started, ["a", "b", "c", "d"]);
    releases[3]!();
    assert.deepEqual(await Promise.all(results.slice(1)), ["b", "c", "d"]);
  });
});
