import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { count, failedHost, gpu, okHost, openStore, tempDir } from "./store-fixtures.ts";

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);
const MIN = 60_000;
const temp = tempDir("gw-store-metrics-");
after(() => temp.remove());
let files = 0;
const freshFile = () => temp.file(`metrics-${++files}.db`);

const trainer = (atMs: number, utilPct: number): HostObservation =>
  okHost("gpu-a", atMs, {
    gpus: [
      gpu(0, {
        utilPct,
        memUsedMiB: 40_000,
        powerW: 301.25,
        tempC: 71,
        processes: [
          {
            pid: 4242,
            user: "alice",
            name: "python train.py",
            usedMemoryMiB: 39_990,
            container: null,
            pod: null,
            namespace: null,
          },
        ],
      }),
      gpu(1, { mig: true, utilPct: null, memUsedMiB: 1024, memTotalMiB: 40_960, powerW: null, tempC: null }),
    ],
    sessions: [{ user: "alice", line: "pts/0", from: "10.0.0.7", idleMinutes: 3 }],
    cpuLoad1: 7.25,
    cpuUtilPct: 41.5,
  });

const podHost = (atMs: number): HostObservation => ({
  host: "node-c",
  source: "prometheus",
  atMs,
  ok: true,
  gpus: [gpu(0, { utilPct: 12.5, uuid: null, model: null, tempC: null })],
  sessions: null,
  cpuLoad1: null,
  cpuUtilPct: 22,
  containers: [
    {
      namespace: "ml",
      pod: "infer-0",
      container: "server",
      cpuRequestCores: 4,
      cpuUsageCores: 0.75,
      gpuRequest: 1,
    },
  ],
});

describe("metrics store: writeCycle and reads", () => {
  it("gives back every value written, nulls and failures included, before and after re-opening", () => {
    const file = freshFile();
    const { store, db, close } = openStore(file);
    const idle = okHost("gpu-b", T0, { gpus: [gpu(0), gpu(1)] });
    assert.deepEqual(store.writeCycle([trainer(T0, 97), idle], T0), {
      cycleId: 1,
      hosts: 2,
      gpuSamples: 4,
      evidenceWrites: 2,
    });
    const second = [trainer(T0 + MIN, 88), failedHost("gpu-b", T0 + MIN + 5), podHost(T0 + MIN)];
    assert.deepEqual(store.writeCycle(second, T0 + MIN), {
      cycleId: 2,
      hosts: 3,
      gpuSamples: 5,
      evidenceWrites: 1,
    });

    const expected = [
      { observation: second[0], lastOkAtMs: T0 + MIN },
      { observation: second[1], lastOkAtMs: T0 },
      { observation: second[2], lastOkAtMs: T0 + MIN },
    ];
    assert.deepEqual(store.latestObservations(), expected);
    const times = new Map(expected.map(({ observation }) => [observation!.host, observation!.atMs]));
    assert.deepEqual(store.latestSampleTimes(), times);

    assert.deepEqual(store.gpuSamplesSince("gpu-b", T0), [
      { host: "gpu-b", index: 0, atMs: T0, utilPct: 0, memUsedMiB: 0, powerW: 60, tempC: 30 },
      { host: "gpu-b", index: 1, atMs: T0, utilPct: 0, memUsedMiB: 0, powerW: 60, tempC: 30 },
      {
        host: "gpu-b",
        index: 0,
        atMs: T0 + MIN + 5,
        utilPct: null,
        memUsedMiB: null,
        powerW: null,
        tempC: null,
      },
      {
        host: "gpu-b",
        index: 1,
        atMs: T0 + MIN + 5,
        utilPct: null,
        memUsedMiB: null,
        powerW: null,
        tempC: null,
      },
    ]);
    assert.deepEqual(store.gpuSamplesSince("gpu-a", T0 + 1), [
      { host: "gpu-a", index: 0, atMs: T0 + MIN, utilPct: 88, memUsedMiB: 40_000, powerW: 301.25, tempC: 71 },
      { host: "gpu-a", index: 1, atMs: T0 + MIN, utilPct: null, memUsedMiB: 1024, powerW: null, tempC: null },
    ]);
    assert.deepEqual(store.hostSamplesSince("gpu-b", T0), [
      {
        host: "gpu-b",
        atMs: T0,
        ok: true,
        cause: null,
        message: null,
        sessions: 0,
        cpuLoad1: 0.5,
        cpuUtilPct: 3,
      },
      {
        host: "gpu-b",
        atMs: T0 + MIN + 5,
        ok: false,
        cause: "timeout",
        message: "gpu-b: no answer within 10 s",
        sessions: null,
        cpuLoad1: null,
        cpuUtilPct: null,
      },
    ]);
    assert.deepEqual(store.hostSamplesSince("node-c", T0), [
      {
        host: "node-c",
        atMs: T0 + MIN,
        ok: true,
        cause: null,
        message: null,
        sessions: null,
        cpuLoad1: null,
        cpuUtilPct: 22,
      },
    ]);
    assert.deepEqual(store.hostSamplesSince("no-such-host", T0), []);
    assert.equal(count(db, "SELECT count(*) FROM gpu_sample WHERE util_pct = 0"), 2, "no reading is never 0");
    close();

    const reopened = openStore(file);
    assert.deepEqual(reopened.store.latestObservations(), expected);
    assert.deepEqual(reopened.store.latestSampleTimes(), times);
    assert.deepEqual(
      reopened.store.hosts().map((host) => [host.name, host.source, host.firstSeenMs, host.gpus.length]),
      [
        ["gpu-a", "ssh", T0, 2],
        ["gpu-b", "ssh", T0, 2],
        ["node-c", "prometheus", T0 + MIN, 1],
      ],
    );
    assert.deepEqual(reopened.store.hosts()[0]!.gpus[1], {
      index: 1,
      uuid: "GPU-00000001-aaaa-bbbb-cccc-dddddddddddd",
      model: "NVIDIA A100-SXM4-80GB",
      memTotalMiB: 40_960,
      mig: true,
      firstSeenMs: T0,
    });
    assert.deepEqual(reopened.store.writeCycle([trainer(T0 + 2 * MIN, 90)], T0 + 2 * MIN).cycleId, 3);
    reopened.close();
  });

  it("reads the latest cycle the writer kept as the database gives it back (NaN is NULL there)", () => {
    const file = freshFile();
    const { store, close } = openStore(file);
    const odd = okHost("gpu-a", T0, { gpus: [gpu(0, { utilPct: Number.NaN, powerW: 250.5 })], cpuLoad1: 3 });
    store.writeCycle([odd, failedHost("gpu-b", T0)], T0);
    const kept = store.latestObservations();
    assert.equal(
      (kept[0]!.observation as { gpus: Array<{ utilPct: number | null }> }).gpus[0]?.utilPct,
      null,
    );
    close();
    const reopened = openStore(file);
    assert.deepEqual(kept, reopened.store.latestObservations());
    reopened.close();
  });

  it("keeps the last observation of a host that drops out, and when it last answered", () => {
    const file = freshFile();
    const { store, close } = openStore(file);
    const first = okHost("gpu-b", T0);
    store.writeCycle([okHost("gpu-a", T0), first], T0);
    store.writeCycle([okHost("gpu-a", T0 + MIN)], T0 + MIN);
    store.writeCycle([okHost("gpu-a", T0 + 2 * MIN)], T0 + 2 * MIN);
    const dropped = store.latestObservations().find((latest) => latest.observation.host === "gpu-b");
    assert.deepEqual(dropped, { observation: first, lastOkAtMs: T0 });
    close();

    const reopened = openStore(file);
    assert.deepEqual(
      reopened.store.latestObservations().find((latest) => latest.observation.host === "gpu-b"),
      { observation: first, lastOkAtMs: T0 },
    );
    const back = failedHost("gpu-b", T0 + 3 * MIN);
    reopened.store.writeCycle([okHost("gpu-a", T0 + 3 * MIN), back], T0 + 3 * MIN);
    reopened.store.writeCycle([okHost("gpu-a", T0 + 4 * MIN)], T0 + 4 * MIN);
    reopened.close();

    const again = openStore(file);
    assert.deepEqual(
      again.store
        .latestObservations()
        .map((latest) => [latest.observation.host, latest.observation.ok, latest.lastOkAtMs]),
      [
        ["gpu-a", true, T0 + 4 * MIN],
        ["gpu-b", false, T0],
      ],
    );
    assert.deepEqual(again.store.latestObservations()[1]!.observation, back);
    again.close();
  });

  it("rejects a cycle that names a host twice, writing nothing, and carries on", () => {
    const { store, db, close } = openStore(freshFile());
    store.writeCycle([okHost("gpu-a", T0)], T0);
    assert.throws(
      () =>
        store.writeCycle(
          [okHost("gpu-new", T0 + MIN), okHost("gpu-a", T0 + MIN), failedHost("gpu-a", T0 + MIN)],
          T0 + MIN,
        ),
      { message: "host gpu-a appears twice in one poll cycle" },
    );
    assert.throws(() => store.writeCycle([okHost("gpu-a", T0 + MIN, { gpus: [gpu(0), gpu(0)] })], T0 + MIN), {
      message: "host gpu-a reports GPU 0 twice in one poll",
    });
    assert.equal(count(db, "SELECT count(*) FROM cycle"), 1);
    assert.equal(count(db, "SELECT count(*) FROM gpu_sample"), 1);
    assert.deepEqual(
      store.hosts().map((host) => host.name),
      ["gpu-a"],
    );
    assert.equal(
      store.writeCycle([okHost("gpu-new", T0 + 2 * MIN), okHost("gpu-a", T0 + 2 * MIN)], T0 + 2 * MIN)
        .cycleId,
      2,
    );
    assert.deepEqual(
      store.latestObservations().map((latest) => latest.observation.host),
      ["gpu-a", "gpu-new"],
    );
    close();
  });

  it("shows drifting evidence at once and stores it when the host stops answering", () => {
    const file = freshFile();
    const { store, db, close } = openStore(file);
    const withMemory = (atMs: number, usedMemoryMiB: number, pid = 7) =>
      okHost("gpu-a", atMs, {
        gpus: [
          gpu(0, {
            memUsedMiB: usedMemoryMiB + 10,
            processes: [
              {
                pid,
                user: "bob",
                name: "jupyter",
                usedMemoryMiB,
                container: null,
                pod: null,
                namespace: null,
              },
            ],
          }),
        ],
        sessions: [{ user: "bob", line: "pts/1", from: null, idleMinutes: atMs === T0 ? 1 : 2 }],
      });
    const storedJson = () => JSON.parse(db.prepare("SELECT json FROM evidence").pluck().get() as string);
    const sinceMs = () => count(db, "SELECT since_ms FROM evidence");

    store.writeCycle([withMemory(T0, 100)], T0);
    assert.equal(storedJson().gpus[0].processes[0].usedMemoryMiB, 100);
    const drifted = withMemory(T0 + MIN, 200);
    assert.equal(store.writeCycle([drifted], T0 + MIN).evidenceWrites, 0);
    assert.deepEqual(store.latestObservations()[0]!.observation, drifted);
    assert.equal(storedJson().gpus[0].processes[0].usedMemoryMiB, 100);
    assert.equal(sinceMs(), T0);

    store.writeCycle([failedHost("gpu-a", T0 + 2 * MIN)], T0 + 2 * MIN);
    assert.equal(storedJson().gpus[0].processes[0].usedMemoryMiB, 200);
    assert.equal(storedJson().sessions[0].idleMinutes, 2);
    assert.equal(sinceMs(), T0, "figures drifting is not a new holder");

    assert.equal(store.writeCycle([withMemory(T0 + 3 * MIN, 200, 8)], T0 + 3 * MIN).evidenceWrites, 1);
    assert.equal(storedJson().gpus[0].processes[0].pid, 8);
    assert.equal(sinceMs(), T0 + 3 * MIN);
    close();
  });

  it("updates a GPU whose identity changes in place", () => {
    const { store, close } = openStore(freshFile());
    store.writeCycle([okHost("gpu-a", T0)], T0);
    store.writeCycle(
      [okHost("gpu-a", T0 + MIN, { gpus: [gpu(0, { uuid: "GPU-new", mig: true, memTotalMiB: 40_960 })] })],
      T0 + MIN,
    );
    assert.deepEqual(store.hosts()[0]!.gpus, [
      {
        index: 0,
        uuid: "GPU-new",
        model: "NVIDIA A100-SXM4-80GB",
        memTotalMiB: 40_960,
        mig: true,
        firstSeenMs: T0,
      },
    ]);
    close();
  });
});
