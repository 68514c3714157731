import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { figuresOf } from "../../src/simulation/policy-figures.ts";
import { teamConfig } from "../../src/simulation/team-config.ts";
import type { TeamEvent } from "../../src/simulation/team-events.ts";
import { TeamLedger } from "../../src/simulation/team-ledger.ts";
import { DEFAULT_TEAM_PARAMS } from "../../src/simulation/team-params.ts";
import { gpuUtils } from "../../src/simulation/team-readings.ts";
import type { SimNotebook } from "../../src/simulation/team-work.ts";
import { TeamWorld } from "../../src/simulation/team-world.ts";

type Killed = Extract<TeamEvent, { kind: "killed" }>;

const WEEK = { ...DEFAULT_TEAM_PARAMS, days: 7 };

/**
 * The team's week with nobody stopping anything, minute by minute, counting each notebook's busy
 * minutes as the host's readings show them (its GPU above 0 %): the cells it has run.
 */
class Week {
  readonly world = new TeamWorld(WEEK, { runStarted() {}, runFinishedNoticed() {}, tidy() {} });
  readonly ledger = new TeamLedger(this.world, teamConfig(WEEK, { autoStop: false }));
  readonly busyMin = new Map<number, number>();
  #minute = 0;

  /** Ticks until a notebook matches `wanted`; returns it. */
  runUntil(wanted: (notebook: SimNotebook) => boolean): SimNotebook {
    let found: SimNotebook | undefined;
    this.tickUntil(() => {
      found = [...this.world.notebooks.values()].find(wanted);
      return found !== undefined;
    });
    return found!;
  }

  tickUntil(done: () => boolean): void {
    while (this.#minute < WEEK.days * 1440) {
      this.tick();
      if (done()) return;
    }
    throw new Error("not within the week");
  }

  tick(): void {
    this.world.tick(WEEK.startMs + this.#minute++ * MINUTE_MS);
    this.ledger.account();
    for (const host of this.world.hosts) {
      const utils = gpuUtils(this.world, host);
      host.slots.forEach((slot, gpu) => {
        if (slot?.kind !== "notebook" || utils[gpu]! <= 0) return;
        this.busyMin.set(slot.notebook.id, (this.busyMin.get(slot.notebook.id) ?? 0) + 1);
      });
    }
  }

  killedBy(stopAtMs: number, id: number): Killed {
    const killed = this.world.events.find(
      (e): e is Killed => e.kind === "killed" && e.atMs === stopAtMs && e.id === id,
    );
    assert.ok(killed, `notebook ${id} has its killed event`);
    return killed;
  }
}

describe("the work a killed notebook loses", () => {
  it("is the GPU time its cells ran since its kernel started, priced at its host's GPU-hour, when its person comes back", () => {
    const week = new Week();
    const alone = (nb: SimNotebook) =>
      week.world.host(nb.host).slots.every((slot) => slot === null || slot.kind === "notebook");
    const notebook = week.runUntil(
      (nb) => nb.phase === "open" && (week.busyMin.get(nb.id) ?? 0) >= 60 && alone(nb),
    );
    const busyMin = week.busyMin.get(notebook.id)!;
    const stopAtMs = week.world.nowMs;
    week.world.powerOff(notebook.host, "policy", "test", null);

    const killed = week.killedBy(stopAtMs, notebook.id);
    assert.equal(killed.falseStop, true, "its person is at work: a victim");
    assert.equal(killed.lostGpuHours, busyMin / 60);
    const others = week.world.events
      .filter((e): e is Killed => e.kind === "killed" && e.atMs === stopAtMs && e.id !== notebook.id)
      .filter((e) => e.falseStop);
    const lostGpuHours = busyMin / 60 + others.reduce((sum, e) => sum + e.lostGpuHours, 0);
    const figures = figuresOf(week.world.events, week.ledger, WEEK);
    const price = week.ledger.gpuHourPrice(notebook.host);
    assert.ok(price > 0);
    assert.equal(figures.work_lost_gpu_hours, Math.round(lostGpuHours * 100) / 100);
    assert.equal(figures.work_lost_notebook_gpu_hours, Math.round(lostGpuHours * 100) / 100);
    assert.equal(figures.work_lost_cost, Math.round(lostGpuHours * price * 100) / 100);
    const wait = (figures.start_wait_min / 60) * WEEK.personHourCost;
    assert.ok(Math.abs(figures.full_cost - (figures.total_cost + figures.work_lost_cost + wait)) < 0.02);

    const person = WEEK.people[notebook.person]!.id;
    week.tickUntil(() =>
      week.world.events.some((e) => e.kind === "notebook-opened" && e.person === person && e.atMs > stopAtMs),
    );
    assert.ok(week.world.nowMs - stopAtMs <= 24 * 60 * MINUTE_MS, "its person opens it again within the day");
  });

  it("is nothing for a forgotten notebook, whose person never comes back to it", () => {
    const week = new Week();
    const notebook = week.runUntil((nb) => nb.phase === "forgotten" && (week.busyMin.get(nb.id) ?? 0) > 0);
    const stopAtMs = week.world.nowMs;
    week.world.powerOff(notebook.host, "policy", "test", null);
    const killed = week.killedBy(stopAtMs, notebook.id);
    assert.equal(killed.falseStop, false);
    assert.equal(killed.lostGpuHours, 0);
  });
});
