import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runTeamMonth } from "../../src/simulation/run-team-month.ts";
import type { TeamEvent } from "../../src/simulation/team-events.ts";
import { DEFAULT_TEAM_PARAMS } from "../../src/simulation/team-params.ts";

const WEEK = { ...DEFAULT_TEAM_PARAMS, days: 7 };
type Killed = Extract<TeamEvent, { kind: "killed" }>;
type Stopped = Extract<TeamEvent, { kind: "host-stopped" }>;

/** The event log as `--events FILE` writes it: one JSON object a line, read back. */
const asJsonLines = (events: readonly TeamEvent[]) =>
  events
    .map((event) => JSON.stringify(event))
    .join("\n")
    .split("\n")
    .map((line) => JSON.parse(line) as TeamEvent);

describe("the benchmark's event log", () => {
  it("is the same for the same seed, and differs for another", async () => {
    const first = await runTeamMonth(WEEK, "skypilot-autostop-5");
    const again = await runTeamMonth(WEEK, "skypilot-autostop-5");
    const other = await runTeamMonth({ ...WEEK, seed: 43 }, "skypilot-autostop-5");
    assert.deepEqual(asJsonLines(again.events), asJsonLines(first.events));
    assert.deepEqual(again.figures, first.figures);
    assert.notDeepEqual(asJsonLines(other.events), asJsonLines(first.events));
  });

  it("traces every false stop and every victim to what was running, and the figures count them", async () => {
    for (const policy of ["process-autostop-5", "nightly", "skypilot-autostop-5"] as const) {
      const month = await runTeamMonth(WEEK, policy);
      const log = asJsonLines(month.events);
      const stops = log.filter((e): e is Stopped => e.kind === "host-stopped");
      const victims = log.filter((e): e is Killed => e.kind === "killed" && e.falseStop);
      assert.ok(victims.length > 0, `${policy} hits someone in a week`);
      assert.equal(stops.filter((s) => s.falseStop).length, month.figures.false_stops, policy);
      assert.equal(victims.length, month.figures.victims, policy);
      assert.equal(victims.filter((v) => v.victim === "run").length, month.figures.victim_runs, policy);
      const lost = victims.reduce((sum, v) => sum + v.lostGpuHours, 0);
      assert.equal(Math.round(lost * 100) / 100, month.figures.work_lost_gpu_hours, policy);
      for (const victim of victims) {
        const stop = stops.find((s) => s.atMs === victim.atMs && s.host === victim.host);
        assert.ok(stop?.falseStop, `${policy}: victim ${victim.victim} ${victim.id} without its false stop`);
        assert.equal(stop.actor, victim.actor);
        assert.ok(aliveAt(log, victim), `${policy}: ${victim.victim} ${victim.id} was not on ${victim.host}`);
      }
      for (const stop of stops.filter((s) => s.falseStop)) {
        assert.ok(
          victims.some((v) => v.atMs === stop.atMs && v.host === stop.host),
          `${policy}: no victim`,
        );
      }
      const reading = log.findLast(
        (e) => e.kind === "reading" && e.host === stops[0]!.host && e.atMs <= stops[0]!.atMs,
      );
      assert.ok(reading, "the readings before a stop are in the log");
    }
  });
});

/** Started (or opened) on the host before the stop, and not finished (or closed) by then. */
function aliveAt(log: readonly TeamEvent[], victim: Killed): boolean {
  const before = log.filter((e) => e.atMs <= victim.atMs);
  if (victim.victim === "run") {
    const started = before.some(
      (e) => e.kind === "run-started" && e.runId === victim.id && e.host === victim.host,
    );
    return started && !before.some((e) => e.kind === "run-finished" && e.runId === victim.id);
  }
  const opened = before.some(
    (e) => e.kind === "notebook-opened" && e.notebookId === victim.id && e.host === victim.host,
  );
  return opened && !before.some((e) => e.kind === "notebook-closed" && e.notebookId === victim.id);
}
