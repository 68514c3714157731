import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compareWaits, waitTable } from "../../bench/outcome/wait-comparison.ts";
import { runTeamMonth } from "../../src/simulation/run-team-month.ts";
import { DEFAULT_TEAM_PARAMS, type TeamParams } from "../../src/simulation/team-params.ts";

/** Two weeks of the default team on one of its hosts: GPUs run short often. */
const CROWDED: TeamParams = {
  ...DEFAULT_TEAM_PARAMS,
  days: 14,
  hosts: DEFAULT_TEAM_PARAMS.hosts.slice(0, 1),
  people: DEFAULT_TEAM_PARAMS.people.map((person) => ({
    ...person,
    homeHost: DEFAULT_TEAM_PARAMS.hosts[0]!.name,
  })),
};

describe("waiting for GPUs in the simulated team", () => {
  test("the waiting list grants in the minute GPUs are freed; a notification waits for its person", async () => {
    const queue = await runTeamMonth({ ...CROWDED, waitMode: "queue" }, "none");
    const notify = await runTeamMonth({ ...CROWDED, waitMode: "notify" }, "none");
    const frees = (events: typeof queue.events) =>
      new Set(
        events.flatMap((event) =>
          event.kind === "run-finished" || event.kind === "notebook-closed" || event.kind === "host-stopped"
            ? [event.atMs]
            : [],
        ),
      );
    const waits = (events: typeof queue.events) =>
      events.flatMap((event) => (event.kind === "gpu-wait" ? [event] : []));
    assert.ok(waits(queue.events).length >= 5, "enough waits to look at");
    const freed = frees(queue.events);
    for (const wait of waits(queue.events))
      assert.ok(freed.has(wait.atMs), `granted as GPUs were freed: ${JSON.stringify(wait)}`);
    assert.ok(waits(notify.events).length >= 5);
    for (const wait of waits(notify.events)) {
      assert.ok(
        wait.waitMin >= DEFAULT_TEAM_PARAMS.answers.quickMedianMin,
        `acted on the DM later: ${JSON.stringify(wait)}`,
      );
    }
    const [crowded] = await compareWaits(CROWDED);
    assert.match(
      waitTable([crowded!], 14, 42),
      /\| default \(6 people\) \| \d+ \/ \d+ \(\d+\) \| \d+ \/ \d+ \(\d+\) \|/,
    );
  });

  test("the default (retry) keeps the outcome figures as they were: the waiting modes change nothing else", async () => {
    const retry = await runTeamMonth({ ...DEFAULT_TEAM_PARAMS, days: 2 }, "none");
    const implicit = await runTeamMonth({ ...DEFAULT_TEAM_PARAMS, days: 2, waitMode: "retry" }, "none");
    assert.deepEqual(retry.figures, implicit.figures);
  });
});
