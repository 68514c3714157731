import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ControlledFleet } from "../../src/playground/controlled-fleet.ts";
import { PlaygroundClock } from "../../src/playground/playground-clock.ts";

const T0 = Date.UTC(2026, 0, 7, 9, 0);

describe("PlaygroundClock", () => {
  it("runs at its rate, pauses, resumes, jumps only forward and reads back past instants", () => {
    let realMs = 1_000_000;
    const clock = new PlaygroundClock(T0, 60, () => realMs);
    realMs += 1_000;
    assert.equal(clock.now(), T0 + 60_000, "a real second is a simulated minute at ×60");
    clock.pause();
    realMs += 5_000;
    assert.equal(clock.now(), T0 + 60_000);
    assert.equal(clock.paused, true);
    clock.setRate(600);
    realMs += 1_000;
    assert.equal(clock.now(), T0 + 660_000, "setting a rate resumes at it");
    clock.jumpTo(T0);
    assert.equal(clock.now(), T0 + 660_000, "never backwards");
    clock.jumpTo(T0 + 86_400_000);
    assert.equal(clock.now(), T0 + 86_400_000);
    assert.equal(clock.simulatedAt(1_000_000 + 500), T0 + 30_000, "half a real second after the start");
    assert.equal(clock.simulatedAt(1_000_000 + 3_000), T0 + 60_000, "while paused");
  });
});

describe("ControlledFleet", () => {
  const fleet = new ControlledFleet({ hosts: 6, gpusPerHost: 4, seed: 267, timezone: "UTC" });

  it("reports the script until a mode is set, then busy, idle, no data or powered off", () => {
    const at = (host: string) => fleet.observeHost(host, T0);
    const scripted = at("gpu-c");
    assert.ok(scripted.ok);
    fleet.setMode("gpu-c", "busy");
    const busy = at("gpu-c");
    assert.ok(busy.ok && busy.gpus.every((gpu) => (gpu.utilPct ?? 0) > 80));
    fleet.setMode("gpu-c", "idle");
    const idle = at("gpu-c");
    assert.ok(idle.ok && idle.gpus.every((gpu) => gpu.utilPct === 0 && gpu.processes.length === 0));
    assert.deepEqual(idle.ok && idle.sessions, []);
    fleet.setMode("gpu-c", "silent");
    assert.equal(at("gpu-c").ok, false, "no data is unknown, not idle");
    fleet.setMode("gpu-c", "off");
    const off = at("gpu-c");
    assert.ok(!off.ok && off.cause === "unreachable");
    fleet.setMode("gpu-c", "scripted");
    assert.deepEqual(at("gpu-c"), scripted);
    assert.deepEqual(
      fleet.observe(T0).find((observation) => observation.host === "gpu-c"),
      scripted,
      "polls see what the panel sets",
    );
  });

  it("refuses a host it does not have", () => {
    assert.throws(() => fleet.setMode("gpu-z", "busy"), /no simulated host named gpu-z/);
  });
});
