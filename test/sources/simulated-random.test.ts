import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { foldSeed, hash4, mulberry32, shuffleInPlace, unit4 } from "../../src/sources/simulated-random.ts";

describe("simulated randomness", () => {
  it("repeats mulberry32 for a seed and spreads its values over [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const values = Array.from({ length: 10_000 }, () => a());
    assert.deepEqual(
      Array.from({ length: 10_000 }, () => b()),
      values,
    );
    assert.ok(values.every((v) => v >= 0 && v < 1));
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    assert.ok(Math.abs(mean - 0.5) < 0.02, `mean ${mean}`);
    assert.notEqual(mulberry32(43)(), mulberry32(42)());
  });

  it("hashes keys into stable, well-spread numbers", () => {
    assert.equal(hash4(1, 2, 3, 4), hash4(1, 2, 3, 4));
    assert.notEqual(hash4(1, 2, 3, 4), hash4(1, 2, 4, 3));
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) buckets[Math.floor(unit4(7, i, 0, 0) * 10)]! += 1;
    assert.ok(
      buckets.every((n) => n > 850 && n < 1150),
      buckets.join(","),
    );
  });

  it("folds seeds beyond 32 bits without dropping their high part", () => {
    assert.notEqual(foldSeed(1), foldSeed(2 ** 32 + 1));
    assert.notEqual(foldSeed(-1), foldSeed(2 ** 32 - 1));
    assert.equal(foldSeed(123), foldSeed(123));
  });

  it("shuffles into a permutation", () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = shuffleInPlace([...items], mulberry32(1));
    assert.notDeepEqual(shuffled, items);
    assert.deepEqual(
      [...shuffled].sort((a, b) => a - b),
      items,
    );
  });
});
