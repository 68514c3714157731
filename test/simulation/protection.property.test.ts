import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { runTeamMonth, type TeamMonth } from "../../src/simulation/run-team-month.ts";
import { teamConfig } from "../../src/simulation/team-config.ts";
import { DEFAULT_TEAM_PARAMS } from "../../src/simulation/team-params.ts";

const PROTECT_MS = teamConfig(DEFAULT_TEAM_PARAMS, { autoStop: false }).policy.protect_minutes * MINUTE_MS;

/** Stops by the policy within the protection window after a run started or a notebook opened on that host. */
function stopsInsideProtection(month: TeamMonth): string[] {
  const starts = month.events.filter((e) => e.kind === "run-started" || e.kind === "notebook-opened");
  const found: string[] = [];
  for (const stop of month.events) {
    if (stop.kind !== "host-stopped" || stop.by !== "policy") continue;
    const start = starts.find(
      (s) => s.host === stop.host && s.atMs <= stop.atMs && stop.atMs - s.atMs < PROTECT_MS,
    );
    if (start)
      found.push(`${stop.host} stopped ${(stop.atMs - start.atMs) / MINUTE_MS} min after ${start.kind}`);
  }
  return found;
}

describe("protection window (fast-check over seeds)", () => {
  it("no policy but autostop and nightly stops a host within the window after work starts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom("none", "gpu-warden", "gpu-warden-autostop"),
        fc.constantFrom(1, 4),
        async (seed, policy, slowdown) => {
          const params = {
            ...DEFAULT_TEAM_PARAMS,
            seed,
            days: 2,
            answers: { ...DEFAULT_TEAM_PARAMS.answers, slowdown },
          };
          const month = await runTeamMonth(params, policy);
          assert.deepEqual(stopsInsideProtection(month), []);
        },
      ),
      { numRuns: 5, seed: 20261204 },
    );
  });

  it("autostop does stop hosts inside the window (what the benchmark counts against it)", async () => {
    const month = await runTeamMonth({ ...DEFAULT_TEAM_PARAMS, days: 7 }, "process-autostop-5");
    assert.ok(stopsInsideProtection(month).length > 0);
  });
});
