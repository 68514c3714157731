import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { buildWeekProfiles, profileWindow } from "../../src/checks/week-profile.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
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
      ["gpu-a:0", "gpu-a:1", "gpu-b:0", "gpu-c:0"],
    );
    assert.equal(actual.enough, true);
    const monday9 = 9; // Monday 09:00 in Berlin: gpu-a:0 busy every week
    assert.equal(actual.gpus[0]!.idleShare[monday9], 0);
    assert.equal(actual.gpus[1]!.idleShare[monday9], 1);
  });
});
