import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BOT_ACTOR } from "../../src/shared/slack-text.ts";
import { runTeamMonth, type TeamMonth } from "../../src/simulation/run-team-month.ts";
import type { TeamEvent } from "../../src/simulation/team-events.ts";
import { DEFAULT_TEAM_PARAMS, type TeamParams } from "../../src/simulation/team-params.ts";

/** A short span keeps the suite quick: Monday and Tuesday, nights and alert cycles included. */
const SHORT: TeamParams = { ...DEFAULT_TEAM_PARAMS, days: 2 };

describe("the simulated team month", () => {
  it("gives identical figures and event logs for the same seed, in a SQLite file or in memory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gpu-warden-sim-"));
    try {
      const first = await runTeamMonth(SHORT, "gpu-warden", { storePath: join(dir, "state.db") });
      const second = await runTeamMonth(SHORT, "gpu-warden");
      assert.deepEqual(second.figures, first.figures);
      assert.deepEqual(second.events, first.events);
      assert.ok(first.events.some((event) => event.kind === "message" && event.what === "alert"));
      const stops = first.events.filter((event) => event.kind === "host-stopped" && event.by === "policy");
      assert.ok(stops.length > 0);
      const team = new Set(SHORT.people.map((person) => person.id));
      for (const stop of stops) {
        assert.ok(
          stop.kind === "host-stopped" && (team.has(stop.actor) || stop.actor === BOT_ACTOR),
          "people press Stop; the autopilot (on by default) stops the rest",
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives different figures for another seed, each within a plausible range", async () => {
    const week = { ...DEFAULT_TEAM_PARAMS, days: 7 };
    const a = await runTeamMonth(week, "none");
    const b = await runTeamMonth({ ...week, seed: 7 }, "none");
    assert.notDeepEqual(b.figures, a.figures);
    for (const { figures } of [a, b]) {
      const idleShare = figures.idle_cost / figures.total_cost;
      assert.ok(idleShare > 0.3 && idleShare < 0.97, `idle share ${idleShare}`);
      assert.equal(figures.false_stops, 0);
      assert.equal(figures.interruptions_per_person_week, 0);
    }
    const runsA = a.events.filter((event) => event.kind === "run-started").length;
    assert.ok(runsA >= 5 && runsA <= 40, `${runsA} runs in a week`);
  });

  it("traces every false stop to a run or notebook in progress in the event log", async () => {
    const months: TeamMonth[] = [
      await runTeamMonth({ ...DEFAULT_TEAM_PARAMS, days: 7 }, "process-autostop-5"),
      await runTeamMonth({ ...DEFAULT_TEAM_PARAMS, days: 7 }, "nightly"),
      await runTeamMonth({ ...SHORT, answers: { ...SHORT.answers, nobody: true } }, "gpu-warden-autostop"),
    ];
    for (const month of months) {
      const stops = month.events.filter(
        (event): event is Extract<TeamEvent, { kind: "host-stopped" }> => event.kind === "host-stopped",
      );
      const falseStops = stops.filter((stop) => stop.falseStop);
      assert.equal(falseStops.length, month.figures.false_stops, month.policy);
      for (const stop of falseStops) {
        const before = month.events.filter((event) => event.atMs <= stop.atMs && event !== stop);
        const victims = [
          ...stop.interruptedRuns.map((run) => liveRun(before, stop.host, run.runId)),
          ...stop.notebooks
            .filter((nb) => nb.comesBackWithinDay)
            .map((nb) => liveNotebook(before, stop.host, nb.notebookId)),
        ];
        assert.ok(victims.length > 0, `${month.policy}: false stop of ${stop.host} with nothing in progress`);
        for (const victim of victims)
          assert.ok(victim, `${month.policy}: a victim of the stop of ${stop.host} is not in the log`);
      }
    }
    const botStops = months[2]!.events.filter((e) => e.kind === "host-stopped" && e.by === "policy");
    assert.ok(botStops.length > 0, "with nobody answering, auto_stop still stops idle hosts");
    for (const stop of botStops) {
      assert.equal(
        stop.kind === "host-stopped" && stop.actor,
        "gpu-warden",
        "only the bot's countdown stops",
      );
    }
    assert.ok(
      months[0]!.figures.false_stops > 0,
      "process-autostop-5 interrupts runs during setup and stage gaps",
    );
    assert.ok(months[1]!.figures.work_lost_gpu_hours > 0, "nightly interrupts long runs");
  });
});

function liveRun(events: readonly TeamEvent[], host: string, runId: number): boolean {
  const started = events.some((e) => e.kind === "run-started" && e.runId === runId && e.host === host);
  const finished = events.some((e) => e.kind === "run-finished" && e.runId === runId);
  return started && !finished;
}

function liveNotebook(events: readonly TeamEvent[], host: string, notebookId: number): boolean {
  const opened = events.some(
    (e) => e.kind === "notebook-opened" && e.notebookId === notebookId && e.host === host,
  );
  const closed = events.some((e) => e.kind === "notebook-closed" && e.notebookId === notebookId);
  return opened && !closed;
}
