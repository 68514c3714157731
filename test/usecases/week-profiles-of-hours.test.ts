import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import {
  buildWeekProfiles,
  busyShares,
  PROFILE_WEEKS,
  profileWindow,
} from "../../src/checks/week-profile.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { DAY_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { readHeatmap } from "../../src/usecases/ledger/read-heatmap.ts";
import { readWeekProfiles } from "../../src/usecases/queue/read-queue-eta.ts";
import { gpu, okHost, openStore, tempDir } from "../store/store-fixtures.ts";

const START = Date.UTC(2026, 8, 28); // Monday 28 Sep 2026: nine weeks before NOW, across Berlin's change of clocks
const NOW = Date.UTC(2026, 10, 30, 10, 5);
const STEP = 30 * MINUTE_MS;
const ZONE = "Europe/Berlin";
const temp = tempDir("gw-week-hours-");
after(() => temp.remove());

/** gpu-a busy on weekday mornings (Berlin), gpu-b busy on odd hours, gpu-c silent some days: a real store. */
function writeWeeks(file: string) {
  const { store } = openStore(file, { sampleSpanMaxMs: STEP });
  for (let at = START; at < NOW; at += STEP) {
    const d = new Date(at);
    const morning = d.getUTCDay() % 6 !== 0 && d.getUTCHours() >= 7 && d.getUTCHours() < 12;
    const observations: HostObservation[] = [
      okHost("gpu-a", at, { gpus: [gpu(0, { utilPct: morning ? 95 : 0 }), gpu(1, { utilPct: 0 })] }),
      okHost("gpu-b", at, { gpus: [gpu(0, { utilPct: d.getUTCHours() % 2 === 1 ? 80 : 0 })] }),
    ];
    if (d.getUTCDate() % 3 !== 0) observations.push(okHost("gpu-c", at, { gpus: [gpu(0, { utilPct: 50 })] }));
    if (at >= NOW - 10 * DAY_MS) observations.push(okHost("gpu-d", at, { gpus: [gpu(0, { utilPct: 70 })] }));
    store.writeCycle(observations, at);
  }
  while (!store.rollup(NOW, 10, 10_000).complete) {}
  return store;
}

describe("the hour-of-week profiles read an hour at a time (the queue's ETAs, the summary's heatmap)", () => {
  it("are the profiles of the same rollups read as one object per GPU-hour, over nine weeks across a change of clocks", () => {
    const metrics = writeWeeks(temp.file("nine-weeks.db"));
    const window = profileWindow(NOW);
    const models = new Map(
      metrics.hosts().flatMap((host) => host.gpus.map((g) => [`${host.name}:${g.index}`, g.model] as const)),
    );
    const expected = buildWeekProfiles(
      metrics.rollupsBetween(window.fromMs, window.toMs),
      models,
      window,
      ZONE,
    );
    const actual = readWeekProfiles({ metrics, config: { team: { timezone: ZONE } } } as never, NOW);
    assert.deepEqual(actual, expected);
    assert.deepEqual(
      actual.gpus.map((g) => `${g.host}:${g.index}`),
      ["gpu-a:0", "gpu-a:1", "gpu-b:0", "gpu-c:0", "gpu-d:0"],
    );
    assert.equal(actual.enough, true);
    const monday9 = 9; // Monday 09:00 in Berlin: gpu-a:0 busy every week
    assert.equal(actual.gpus[0]!.idleShare[monday9], 0);
    assert.equal(actual.gpus[1]!.idleShare[monday9], 1);
    const recent = actual.gpus[4]!.idleShare;
    assert.ok(
      recent.some(Number.isNaN) && recent.some((share) => share === 0),
      "gpu-d: ten days, some hours unknown",
    );
  });

  it("give the summary's heatmap one hour-of-week at a time: per host the busy shares of the GPUs' profiles, the same numbers", () => {
    const metrics = writeWeeks(temp.file("heatmap.db"));
    const window = profileWindow(NOW);
    const profiles = buildWeekProfiles(
      metrics.rollupsBetween(window.fromMs, window.toMs),
      new Map(),
      window,
      ZONE,
    );
    const hosts = [...new Set(profiles.gpus.map((g) => g.host))];
    const expected = hosts.map((name) => {
      const gpus = profiles.gpus.filter((g) => g.host === name);
      return { name, gpus: gpus.length, busyShares: busyShares(gpus) };
    });
    const heatmap = readHeatmap(
      { metrics, config: { team: { timezone: ZONE, currency: "EUR" } } } as never,
      NOW,
    );
    assert.deepEqual(heatmap, {
      ...window,
      weeks: PROFILE_WEEKS,
      timezone: ZONE,
      currency: "EUR",
      rows: expected,
    });
    assert.deepEqual(
      heatmap.rows.map((row) => `${row.name}×${row.gpus}`),
      ["gpu-a×2", "gpu-b×1", "gpu-c×1", "gpu-d×1"],
    );
    const monday9 = 9;
    assert.equal(
      heatmap.rows[0]!.busyShares[monday9],
      0.5,
      "gpu-a: one of its two GPUs busy on Monday mornings",
    );
    assert.equal(heatmap.rows[1]!.busyShares.includes(null), false, "gpu-b: every hour known");
  });
});
