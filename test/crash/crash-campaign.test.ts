import assert from "node:assert/strict";
import { test } from "node:test";
import { KNOWN_WINDOWS, runCrashCampaign } from "./crash-campaign.ts";

/** `CRASH_SEED` replays a campaign; `CRASH_POINTS` changes its size (`npm run crash` runs 100). */
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const points = Number(process.env.CRASH_POINTS ?? 10);

test(`the team's day survives kill -9 at ${points} random points and the known windows (seed ${seed})`, {
  timeout: 600_000,
}, async () => {
  const result = await runCrashCampaign({ points, seed });
  assert.deepEqual(
    result.violations,
    [],
    [
      `replay: npm run crash -- --points ${points} --seed ${seed} (or CRASH_SEED=${seed} on this test)`,
      ...result.violations,
      ...result.diagnosis,
    ].join("\n"),
  );
  assert.equal(result.kills, points + KNOWN_WINDOWS.length);
  assert.deepEqual(result.missed, [], "every known window was entered before the kill");
});
