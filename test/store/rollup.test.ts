import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { GpuHourRollup } from "../../src/domain/metrics.ts";
import { DAY_MS, HOUR_MS } from "../../src/shared/clock.ts";
import { ROLLED_UP_TO_KEY } from "../../src/store/rollup.ts";
import { count, failedHost, gpu, okHost, openStore, tempDir } from "./store-fixtures.ts";

const H = Date.UTC(2026, 2, 2, 10, 0, 0);
const MIN = 60_000;
const SPAN = 2 * MIN;
const temp = tempDir("gw-store-rollup-");
after(() => temp.remove());
let files = 0;
const freshFile = () => temp.file(`rollup-${++files}.db`);

/**
 * 10:00–11:00 on gpu-a, one poll a minute, readings standing for at most 2 minutes:
 * GPU 0 busy at 50 % for 30 min, idle at 5 % for 15, no utilisation reading for 5 (memory and
 * power still read); polls fail 10:50–10:54; no poll 10:55–10:59 (the 10:54 poll covers 2 min).
 * GPU 1 at exactly the 10 % threshold for 10 min (busy), then 0 % for 40.
 * A poll at 09:59 and one at 11:00 belong to the neighbouring hours.
 */
function writeHandBuiltHour(file: string): void {
  const { store, close } = openStore(file, { sampleSpanMaxMs: SPAN });
  store.writeCycle(
    [okHost("gpu-a", H - MIN, { gpus: [gpu(0, { utilPct: 100 }), gpu(1, { utilPct: 100 })] })],
    H - MIN,
  );
  for (let m = 0; m < 55; m++) {
    const atMs = H + m * MIN;
    if (m >= 50) {
      store.writeCycle([failedHost("gpu-a", atMs)], atMs);
      continue;
    }
    const gpu0 =
      m < 30
        ? gpu(0, { utilPct: 50, memUsedMiB: 1000, powerW: 300 })
        : gpu(0, { utilPct: m < 45 ? 5 : null, memUsedMiB: 2000, powerW: 120 });
    const gpu1 = gpu(1, { utilPct: m < 10 ? 10 : 0, memUsedMiB: 0, powerW: 60 });
    store.writeCycle([okHost("gpu-a", atMs, { gpus: [gpu0, gpu1] })], atMs);
  }
  store.writeCycle([okHost("gpu-a", H + HOUR_MS, { gpus: [gpu(0, { utilPct: 100 })] })], H + HOUR_MS);
  close();
}

const uuid = (index: number) => `GPU-0000000${index}-aaaa-bbbb-cccc-dddddddddddd`;

const hour10: GpuHourRollup[] = [
  {
    host: "gpu-a",
    index: 0,
    uuid: uuid(0),
    hourMs: H,
    utilMeanPct: 35,
    utilMaxPct: 50,
    busyMinutes: 30,
    idleMinutes: 15,
    unknownMinutes: 15,
    memMeanMiB: 1400,
    memMaxMiB: 2000,
    energyWh: 190,
  },
  {
    host: "gpu-a",
    index: 1,
    uuid: uuid(1),
    hourMs: H,
    utilMeanPct: 2,
    utilMaxPct: 10,
    busyMinutes: 10,
    idleMinutes: 40,
    unknownMinutes: 10,
    memMeanMiB: 0,
    memMaxMiB: 0,
    energyWh: 50,
  },
];

describe("metrics store: hourly rollups", () => {
  it("rolls up a hand-built hour to the exact figures, once the hour is complete", () => {
    const file = freshFile();
    writeHandBuiltHour(file);
    const { store, close } = openStore(file, { sampleSpanMaxMs: SPAN });

    assert.deepEqual(store.rollup(H + HOUR_MS + SPAN - 1, 10), { hours: 1, rolledUpToMs: H, complete: true });
    assert.deepEqual(
      store.rollupsBetween(H - HOUR_MS, H).map((row) => [row.index, row.busyMinutes, row.unknownMinutes]),
      [
        [0, 1, 59],
        [1, 1, 59],
      ],
    );
    assert.deepEqual(store.rollupsBetween(H, H + HOUR_MS), []);

    assert.deepEqual(store.rollup(H + HOUR_MS + SPAN, 10), {
      hours: 1,
      rolledUpToMs: H + HOUR_MS,
      complete: true,
    });
    assert.deepEqual(store.rollupsBetween(H, H + HOUR_MS), hour10);
    assert.deepEqual(store.rollupsBetween(H, H + HOUR_MS, "gpu-a"), hour10);
    assert.deepEqual(store.rollupsBetween(H, H + HOUR_MS, "gpu-z"), []);

    assert.deepEqual(store.rollupTotals(H - HOUR_MS, H + HOUR_MS), [
      {
        host: "gpu-a",
        index: 0,
        uuid: uuid(0),
        model: "NVIDIA A100-SXM4-80GB",
        hours: 2,
        utilMeanPct: (100 * 1 + 35 * 45) / 46,
        utilMaxPct: 100,
        busyMinutes: 31,
        idleMinutes: 15,
        unknownMinutes: 74,
        memMaxMiB: 2000,
        energyWh: 1 + 190,
      },
      {
        host: "gpu-a",
        index: 1,
        uuid: uuid(1),
        model: "NVIDIA A100-SXM4-80GB",
        hours: 2,
        utilMeanPct: (100 * 1 + 2 * 50) / 51,
        utilMaxPct: 100,
        busyMinutes: 11,
        idleMinutes: 40,
        unknownMinutes: 69,
        memMaxMiB: 0,
        energyWh: 1 + 50,
      },
    ]);
    close();
  });

  it("is idempotent: a second run adds nothing, a lost watermark recomputes the same rows", () => {
    const file = freshFile();
    writeHandBuiltHour(file);
    const { store, db, close } = openStore(file, { sampleSpanMaxMs: SPAN });
    store.rollup(H + HOUR_MS + SPAN, 10);
    const before = store.rollupsBetween(0, H + DAY_MS);
    assert.deepEqual(store.rollup(H + HOUR_MS + SPAN, 10), {
      hours: 0,
      rolledUpToMs: H + HOUR_MS,
      complete: true,
    });
    db.prepare("DELETE FROM meta WHERE key = ?").run(ROLLED_UP_TO_KEY);
    assert.deepEqual(store.rollup(H + HOUR_MS + SPAN, 10), {
      hours: 2,
      rolledUpToMs: H + HOUR_MS,
      complete: true,
    });
    assert.deepEqual(store.rollupsBetween(0, H + DAY_MS), before);
    assert.equal(count(db, "SELECT count(*) FROM gpu_hour"), 4);
    close();
  });

  it("splits a reading that spans the hour boundary between both hours", () => {
    const { store, close } = openStore(freshFile(), { sampleSpanMaxMs: SPAN });
    for (const [atMs, utilPct] of [
      [H + 58 * MIN, 80],
      [H + 59 * MIN, 80],
      [H + 60.5 * MIN, 0],
      [H + 61.5 * MIN, 0],
    ] as const) {
      store.writeCycle([okHost("gpu-a", atMs, { gpus: [gpu(0, { utilPct })] })], atMs);
    }
    store.rollup(H + 3 * HOUR_MS, 10);
    assert.deepEqual(
      store
        .rollupsBetween(H, H + 2 * HOUR_MS)
        .map((row) => [
          row.hourMs,
          row.busyMinutes,
          row.idleMinutes,
          row.unknownMinutes,
          row.utilMeanPct,
          row.utilMaxPct,
        ]),
      [
        [H, 2, 0, 58, 80, 80],
        [H + HOUR_MS, 0.5, 3, 56.5, (80 * 30_000) / 210_000, 80],
      ],
    );
    close();
  });

  it("skips hours without polls and resumes where a bounded run stopped", () => {
    const { store, close } = openStore(freshFile(), { sampleSpanMaxMs: SPAN });
    for (const hour of [0, 1, 2, 9]) {
      const atMs = H + hour * HOUR_MS + 30 * MIN;
      store.writeCycle([okHost("gpu-a", atMs)], atMs);
    }
    const upto = H + 12 * HOUR_MS;
    assert.deepEqual(store.rollup(upto, 10, 2), { hours: 2, rolledUpToMs: H + 2 * HOUR_MS, complete: false });
    assert.deepEqual(store.rollup(upto, 10, 2), { hours: 2, rolledUpToMs: H + 11 * HOUR_MS, complete: true });
    assert.deepEqual(store.rollup(upto, 10, 2), { hours: 0, rolledUpToMs: H + 11 * HOUR_MS, complete: true });
    assert.deepEqual(
      store.rollupsBetween(0, upto).map((row) => [(row.hourMs - H) / HOUR_MS, row.idleMinutes]),
      [
        [0, 2],
        [1, 2],
        [2, 2],
        [9, 2],
      ],
    );
    close();
  });

  it("reports nothing to do on an empty store", () => {
    const { store, close } = openStore(freshFile());
    assert.deepEqual(store.rollup(H, 10), { hours: 0, rolledUpToMs: null, complete: true });
    assert.deepEqual(store.prune(H, 8, 400), { cycles: 0, gpuHours: 0, complete: true });
    close();
  });
});

describe("metrics store: retention", () => {
  const D0 = Date.UTC(2026, 1, 1);
  const NOW = D0 + 10 * DAY_MS;

  function tenDaysHourly(file: string) {
    const opened = openStore(file);
    for (let h = 0; h < 240; h++) {
      const atMs = D0 + h * HOUR_MS;
      opened.store.writeCycle([okHost("gpu-a", atMs, { gpus: [gpu(0, { utilPct: h % 100 })] })], atMs);
    }
    return opened;
  }

  it("keeps raw samples for the retention window and hourly rollups far longer", () => {
    const { store, db, close } = tenDaysHourly(freshFile());
    assert.deepEqual(
      store.prune(NOW, 8, 400),
      { cycles: 0, gpuHours: 0, complete: true },
      "nothing rolled up yet",
    );
    assert.equal(store.rollup(NOW, 10, 1000).hours, 239, "the hour in progress waits");

    assert.deepEqual(store.prune(NOW, 8, 400), { cycles: 48, gpuHours: 0, complete: true });
    for (const table of ["cycle", "host_sample", "gpu_sample"]) {
      assert.equal(count(db, `SELECT count(*) FROM ${table}`), 192, table);
    }
    const raw = store.gpuSamplesSince("gpu-a", 0);
    assert.equal(raw.length, 192);
    assert.equal(raw[0]!.atMs, NOW - 8 * DAY_MS);
    assert.equal(raw[0]!.utilPct, 48);
    assert.equal(store.rollupsBetween(0, NOW).length, 239);

    assert.deepEqual(store.prune(NOW, 8, 5), { cycles: 0, gpuHours: 120, complete: true });
    assert.equal(store.rollupsBetween(0, NOW)[0]!.hourMs, NOW - 5 * DAY_MS);
    assert.equal(store.latestObservations().length, 1);
    close();
  });

  it("forgets the latest observation of a host once its samples are pruned, not the host", () => {
    const { store, close } = openStore(freshFile());
    store.writeCycle([okHost("gpu-a", D0), okHost("gpu-gone", D0)], D0);
    for (let h = 1; h < 240; h++) store.writeCycle([okHost("gpu-a", D0 + h * HOUR_MS)], D0 + h * HOUR_MS);
    store.rollup(NOW, 10, 1000);
    assert.deepEqual(
      store.latestObservations().map((latest) => latest.observation.host),
      ["gpu-a", "gpu-gone"],
    );
    store.prune(NOW, 8, 400);
    assert.deepEqual(
      store.latestObservations().map((latest) => latest.observation.host),
      ["gpu-a"],
    );
    assert.deepEqual(
      store.hosts().map((host) => host.name),
      ["gpu-a", "gpu-gone"],
    );
    assert.equal(store.rollupsBetween(D0, D0 + HOUR_MS, "gpu-gone").length, 1);
    close();
  });

  it("deletes an engine host's raw samples past its own window, in bounded steps, and keeps the others'", () => {
    const { store, db, close } = openStore(freshFile());
    for (let h = 0; h < 240; h++) {
      const atMs = D0 + h * HOUR_MS;
      store.writeCycle([okHost("gpu-a", atMs), { ...okHost("prom-a", atMs), source: "prometheus" }], atMs);
    }
    store.rollup(NOW, 10, 1000);
    const rowsOf = (host: string) => store.gpuSamplesSince(host, 0).length;
    assert.deepEqual(store.prune(NOW, 8, 400, 100, 3 / 24), { cycles: 148, gpuHours: 0, complete: false });
    assert.deepEqual(store.prune(NOW, 8, 400, 100, 3 / 24), { cycles: 89, gpuHours: 0, complete: true });
    assert.equal(rowsOf("gpu-a"), 192, "8 days of the SSH host's samples");
    assert.equal(rowsOf("prom-a"), 3, "the engine host's last 3 hours");
    assert.equal(store.hostSamplesSince("prom-a", 0).length, 3);
    assert.equal(store.rollupsBetween(0, NOW, "prom-a").length, 239, "its hourly rollups stay");
    assert.equal(count(db, "SELECT count(*) FROM cycle"), 192);
    assert.deepEqual(store.prune(NOW, 8, 400, 100, 3 / 24), { cycles: 0, gpuHours: 0, complete: true });
    close();
  });

  it("deletes in bounded steps and never raw samples not yet rolled up", () => {
    const { store, db, close } = tenDaysHourly(freshFile());
    assert.deepEqual(store.rollup(D0 + 5 * DAY_MS, 10, 1000), {
      hours: 119,
      rolledUpToMs: D0 + 5 * DAY_MS - HOUR_MS,
      complete: true,
    });
    assert.deepEqual(store.prune(NOW, 1, 400, 100), { cycles: 100, gpuHours: 0, complete: false });
    assert.deepEqual(store.prune(NOW, 1, 400, 100), { cycles: 19, gpuHours: 0, complete: true });
    assert.equal(count(db, "SELECT min(at_ms) FROM cycle"), D0 + 5 * DAY_MS - HOUR_MS);
    close();
  });
});
