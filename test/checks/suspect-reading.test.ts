import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classifyGpu } from "../../src/checks/classify-gpu.ts";
import { classifyHost, hostClass } from "../../src/checks/classify-host.ts";
import { readingPlausibility } from "../../src/checks/suspect-reading.ts";
import { parseGpuQuery } from "../../src/sources/parse-nvidia-smi.ts";
import { readFixture } from "../helpers/fixtures.ts";
import { gpuProcess, observed, POLICY, reading } from "./builders.ts";

const CAPTURES = ["nvidia-smi", "utkuozdemir-captures"];
const capture = (name: string) => parseGpuQuery(readFixture(...CAPTURES, `${name}__query-gpu.csv`))[0]!;

describe("implausible readings (suspect)", () => {
  test("the real L40S capture at 100 % with 0 MiB at 145 W is suspect; real load captures are not", () => {
    const l40sIdle = capture("linux-x86_64__nvidia-l40s__595.80__idle");
    assert.deepEqual([l40sIdle.utilPct, l40sIdle.memUsedMiB, l40sIdle.powerW], [100, 0, 144.97]);
    assert.equal(readingPlausibility(l40sIdle), "suspect");
    assert.equal(classifyGpu(l40sIdle, 10).class, "suspect");
    for (const name of [
      "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load",
      "linux-x86_64__nvidia-h200__590.48.01__load",
      "linux-x86_64__nvidia-l40s__595.80__load",
      "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__idle",
    ]) {
      assert.equal(readingPlausibility(capture(name)), "plausible", name);
    }
  });

  test("each condition matters: memory or a process held, or power above idle level, makes it plausible", () => {
    const full = { utilPct: 100, memUsedMiB: 0, powerW: 60, processes: [] };
    assert.equal(readingPlausibility(full), "suspect");
    assert.equal(readingPlausibility({ ...full, utilPct: 97 }), "plausible");
    assert.equal(readingPlausibility({ ...full, memUsedMiB: 19_818 }), "plausible");
    assert.equal(readingPlausibility({ ...full, processes: [gpuProcess("alice", "burn", 0)] }), "plausible");
    assert.equal(readingPlausibility({ ...full, powerW: 632 }), "plausible");
    assert.equal(
      readingPlausibility({ ...full, powerW: 632 }, 700),
      "suspect",
      "the threshold is configurable",
    );
  });

  test("unknown power or memory is not suspect (and not idle): the reading stands as reported", () => {
    const aicrBusyH100 = { utilPct: 100, memUsedMiB: null, powerW: 290.28, processes: [] };
    assert.equal(readingPlausibility(aicrBusyH100), "plausible");
    assert.equal(
      readingPlausibility({ utilPct: 100, memUsedMiB: 0, powerW: null, processes: [] }),
      "unverifiable",
    );
    assert.equal(classifyGpu(reading(0, 100, { memUsedMiB: 0, powerW: null }), 10).class, "busy");
    assert.equal(classifyGpu(reading(0, 100, { memUsedMiB: null, powerW: 40 }), 10).class, "busy");
  });

  test("a host: busy wins, then unknown, then an active session, then suspect, then idle", () => {
    const sample = (utils: (number | null)[], sessions = 0) => {
      const observation = observed("gpu-l", 0, utils, []);
      observation.gpus[0] = reading(0, utils[0] ?? null, { memUsedMiB: 0, powerW: 145 });
      observation.sessions = Array.from({ length: sessions }, () => ({
        user: "bob",
        line: "pts/0",
        from: null,
        idleMinutes: 0,
      }));
      return hostClass(classifyHost(observation, POLICY));
    };
    assert.equal(sample([100, 0, 0, 0]), "suspect");
    assert.equal(sample([100, 0, 0, 95]), "busy");
    assert.equal(sample([100, null, 0, 0]), "unknown");
    assert.equal(sample([100, 0, 0, 0], 1), "session");
    assert.equal(sample([0, 0, 0, 0]), "idle");
  });
});
