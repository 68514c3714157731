import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Database } from "better-sqlite3";
import fc from "fast-check";
import { type Config, configSchema } from "../../src/config/schema.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { idlePolicyOf, restoreWindowMinutes } from "../../src/usecases/alerts/alert-policy.ts";
import type { AlertRun } from "../../src/usecases/alerts/idle-alert-run.ts";
import { SNAPSHOT_EVERY_SWEEPS, saveIdleSnapshot } from "../../src/usecases/alerts/idle-snapshot.ts";
import { restoreStates } from "../../src/usecases/alerts/restore-states.ts";
import { withAlertRun } from "../helpers/with-alert-run.ts";

const T0 = Date.UTC(2026, 0, 5, 9, 0);
const HOSTS = ["gpu-a", "gpu-b", "gpu-c"];
const dir = mkdtempSync(join(tmpdir(), "gw-idle-snapshot-"));
after(() => rmSync(dir, { recursive: true, force: true }));

type Seen = "idle" | "busy" | "session" | "failed" | "absent";
const seenArb = fc.constantFrom<Seen>("idle", "idle", "idle", "busy", "session", "failed", "absent");

const historyArb = fc.record({
  /** Per poll, the minutes since the previous one (a gap longer than three is a break). */
  steps: fc.array(fc.constantFrom(1, 1, 1, 1, 2, 5), { minLength: 1, maxLength: 40 }),
  seen: fc.array(fc.array(seenArb, { minLength: 40, maxLength: 40 }), {
    minLength: HOSTS.length,
    maxLength: HOSTS.length,
  }),
  /** After this poll a host is seen no more (vanished); past the end, never. */
  goneAfter: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: HOSTS.length, maxLength: HOSTS.length }),
  snapshotAt: fc.nat(),
  /** Minutes from the last poll to the restart: past the window, old samples fall out of it. */
  restartAfter: fc.constantFrom(0, 1, 5, 30, 50, 90),
  policyChanged: fc.boolean(),
  neverStopChanged: fc.boolean(),
});

function configOf(idleFor: number, neverStop: boolean): Config {
  return configSchema.parse({
    slack: { channel: "C0GPU" },
    poll: { interval_seconds: 60 },
    policy: { idle_for_minutes: idleFor, protect_minutes: 15 },
    hosts: { "gpu-b": { never_stop: neverStop } },
  });
}

function observation(host: string, seen: Seen, atMs: number): HostObservation | null {
  if (seen === "absent") return null;
  if (seen === "failed")
    return { host, source: "simulated", atMs, ok: false, cause: "timeout", message: "timeout" };
  const util = seen === "busy" ? 80 : 0;
  const gpu = (index: number) => ({
    index,
    uuid: `${host}-${index}`,
    model: "H100",
    utilPct: util,
    memUsedMiB: 0,
    memTotalMiB: 80_000,
    powerW: 60,
    tempC: 40,
    mig: false,
    processes: [],
  });
  const sessions = seen === "session" ? [{ user: "ana", line: "pts/0", from: null, idleMinutes: 1 }] : [];
  return {
    host,
    source: "simulated",
    atMs,
    ok: true,
    gpus: [gpu(0), gpu(1)],
    sessions,
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  };
}

/** An alert run over the store at `path` at `nowMs`; `use` runs in one transaction, then the store closes. */
function withRun<T>(path: string, config: Config, nowMs: number, use: (run: AlertRun, db: Database) => T): T {
  return withAlertRun(path, config, nowMs, (run, db) => run.transaction(() => use(run, db)));
}

/** The states a restart at `nowMs` rebuilds; without the snapshot, the snapshot is deleted first. */
function rebuild(path: string, config: Config, nowMs: number, withSnapshot: boolean) {
  return withRun(path, config, nowMs, (run, db) => {
    if (!withSnapshot) db.exec("DELETE FROM idle_snapshot");
    restoreStates(run, null);
    return run.states;
  });
}

/** {@link rebuild} without the snapshot over a copy of the store, which keeps its snapshot. */
function replayed(path: string, config: Config, nowMs: number) {
  const copy = `${path}-copy.db`;
  copyFileSync(path, copy);
  try {
    return rebuild(copy, config, nowMs, false);
  } finally {
    rmSync(copy);
  }
}

describe("the idle snapshot (a restart replays only the polls after it)", () => {
  let file = 0;
  it("rebuilds the same states as replaying the whole window", () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const path = join(dir, `store-${file++}.db`);
        const before = configOf(10, false);
        const now = configOf(history.policyChanged ? 12 : 10, history.neverStopChanged);
        const polls: number[] = [];
        let atMs = T0;
        for (const step of history.steps) {
          atMs += step * MINUTE_MS;
          polls.push(atMs);
        }
        while (polls.length > 1 && polls.at(-1)! > T0 + 50 * MINUTE_MS) polls.pop();
        const snapshotPoll = history.snapshotAt % polls.length;
        const write = (from: number, to: number) =>
          withRun(path, before, polls[Math.max(from, to - 1)]!, (run) => {
            for (let p = from; p < to; p++) {
              const seen = HOSTS.map((host, h) =>
                p > history.goneAfter[h]! ? null : observation(host, history.seen[h]![p]!, polls[p]!),
              ).filter((o) => o !== null);
              run.metrics.writeCycle(seen, polls[p]!);
            }
          });
        write(0, snapshotPoll + 1);
        const taken = withRun(path, before, polls[snapshotPoll]!, (run) => {
          restoreStates(run, null);
          saveIdleSnapshot(run, 1);
          return run.states;
        });
        write(snapshotPoll + 1, polls.length);
        const lastMs = polls.at(-1)!;
        const restartMs = lastMs + history.restartAfter * MINUTE_MS;
        const withSnapshot = rebuild(path, now, restartMs, true);
        const fullReplay = rebuild(path, now, restartMs, false);
        // NOTE: a usable snapshot carries what came before the window too: the same as replaying all of it.
        const everything = rebuild(path, now, lastMs, false);
        const windowStartMs = restartMs - restoreWindowMinutes(idlePolicyOf(now)) * MINUTE_MS;
        for (const host of HOSTS) {
          const fingerprintKept = !history.policyChanged && !(history.neverStopChanged && host === "gpu-b");
          const snapped = fingerprintKept ? taken.get(host) : undefined;
          const usable = snapped?.lastSampleAtMs != null && snapped.lastSampleAtMs >= windowStartMs;
          assert.deepEqual(withSnapshot.get(host), (usable ? everything : fullReplay).get(host), host);
        }
        if (T0 >= windowStartMs) assert.deepEqual(withSnapshot, fullReplay);
      }),
      { numRuns: 100 },
    );
  });

  it("each sweep writes a tenth of the hosts, and every host within ten sweeps", () => {
    const path = join(dir, "shares.db");
    const hosts = Array.from({ length: 200 }, (_, i) => `node-${i}`);
    const config = configOf(10, false);
    withRun(path, config, T0, (run) => {
      run.metrics.writeCycle(
        hosts.map((host) => observation(host, "idle", T0)!),
        T0,
      );
      restoreStates(run, null);
      const written: number[] = [];
      for (let sweep = 0; sweep < SNAPSHOT_EVERY_SWEEPS; sweep++) {
        run.states = new Map([...run.states].map(([host, state]) => [host, { ...state }]));
        saveIdleSnapshot(run);
        written.push(run.store.idleSnapshot.all().length);
      }
      assert.ok(written[0]! > 0 && written[0]! < hosts.length / 4, `the first sweep wrote ${written[0]}`);
      assert.equal(written.at(-1), hosts.length);
      for (let sweep = 0; sweep < SNAPSHOT_EVERY_SWEEPS; sweep++) saveIdleSnapshot(run);
      const again = run.store.idleSnapshot.rowsChanged();
      for (let sweep = 0; sweep < SNAPSHOT_EVERY_SWEEPS; sweep++) saveIdleSnapshot(run);
      assert.equal(run.store.idleSnapshot.rowsChanged(), again, "unchanged states are not written again");
    });
    assert.equal(rebuild(path, config, T0 + MINUTE_MS, true).size, hosts.length);
  });

  it("deletes the rows of hosts gone for longer than the restore window; a returning host is rebuilt, not restored idle", () => {
    const path = join(dir, "departed.db");
    const config = configOf(10, false);
    const windowMs = restoreWindowMinutes(idlePolicyOf(config)) * MINUTE_MS;
    const pollAt = (atMs: number, hosts: readonly string[]) =>
      withRun(path, config, atMs, (run) =>
        run.metrics.writeCycle(
          hosts.map((host) => observation(host, "idle", atMs)!),
          atMs,
        ),
      );
    const snapshotAt = (atMs: number, sweeps: number) =>
      withRun(path, config, atMs, (run) => {
        restoreStates(run, null);
        for (let sweep = 0; sweep < sweeps; sweep++) saveIdleSnapshot(run, SNAPSHOT_EVERY_SWEEPS, atMs);
        return new Map(run.store.idleSnapshot.all().map((row) => [row.host, row.atMs]));
      });
    const leftAt = T0 + 30 * MINUTE_MS;
    for (let atMs = T0; atMs <= leftAt; atMs += MINUTE_MS) pollAt(atMs, ["gpu-a", "gone"]);
    assert.deepEqual(
      snapshotAt(leftAt, SNAPSHOT_EVERY_SWEEPS),
      new Map([
        ["gpu-a", leftAt],
        ["gone", leftAt],
      ]),
    );
    assert.equal(rebuild(path, config, leftAt + MINUTE_MS, true).get("gone")?.status, "idle");

    const backAt = leftAt + 20 * MINUTE_MS;
    pollAt(backAt, ["gpu-a", "gone"]);
    const early = rebuild(path, config, backAt + MINUTE_MS, true).get("gone");
    assert.notEqual(
      early?.status,
      "idle",
      "back after a gap within the window: a new episode, not the row's",
    );
    assert.deepEqual(early, replayed(path, config, backAt + MINUTE_MS).get("gone"));

    const lateMs = backAt + windowMs + 5 * MINUTE_MS;
    for (let atMs = backAt + MINUTE_MS; atMs <= lateMs; atMs += 5 * MINUTE_MS) pollAt(atMs, ["gpu-a"]);
    const left = snapshotAt(lateMs, SNAPSHOT_EVERY_SWEEPS);
    assert.equal(left.has("gone"), false, "the row of a host silent for longer than the window is deleted");
    assert.ok(left.has("gpu-a"));

    const returnMs = lateMs + MINUTE_MS;
    pollAt(returnMs, ["gpu-a", "gone"]);
    const returned = rebuild(path, config, returnMs + MINUTE_MS, true).get("gone");
    assert.notEqual(returned?.status, "idle", "one reading after a long absence is not idle");
    assert.deepEqual(returned, replayed(path, config, returnMs + MINUTE_MS).get("gone"));
  });
});
