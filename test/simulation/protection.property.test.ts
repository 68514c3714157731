import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { runTeamMonth, type TeamMonth } from "../../src/simulation/run-team-month.ts";
import { teamConfig } from "../../src/simulation/team-config.ts";
import { DEFAULT_TEAM_PARAMS } from "../../src/simulation/team-params.ts";

const PROTECT_MS = teamConfig(DEFAULT_TEAM_PARAMS, { autoStop: false }).policy.protect_minutes * MINUTE_MS;

/**
 * Stops by the policy within the protection window after a run started or a notebook opened on that
 * host, that work not having ended before the stop (protection guards work still on the host; an
 * empty host is not held by it).
 */
function stopsInsideProtection(month: TeamMonth): string[] {
  const starts = month.events.filter((e) => e.kind === "run-started" || e.kind === "notebook-opened");
  const endedAt = new Map<string, number>();
  for (const e of month.events) {
    if (e.kind === "run-finished") endedAt.set(`run:${e.runId}`, e.atMs);
    if (e.kind === "notebook-closed") endedAt.set(`notebook:${e.notebookId}`, e.atMs);
  }
  const endOf = (s: (typeof starts)[number]) =>
    endedAt.get(s.kind === "run-started" ? `run:${s.runId}` : `notebook:${s.notebookId}`) ?? null;
  const found: string[] = [];
  for (const stop of month.events) {
    if (stop.kind !== "host-stopped" || stop.by !== "policy") continue;
    const start = starts.find((s) => {
      const ended = endOf(s);
      const still = ended === null || ended > stop.atMs;
      return s.host === stop.host && s.atMs <= stop.atMs && stop.atMs - s.atMs < PROTECT_MS && still;
    });
    if (start)
      found.push(`${stop.host} stopped ${(stop.atMs - start.atMs) / MINUTE_MS} min after ${start.kind}`);
  }
  return found;
}

describe("protection window (fast-check over seeds)", () => {
  it("no policy but autostop and nightly stops a host within the window after work starts, while that work is on it", async () => {
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
