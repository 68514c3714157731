import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { dayjs } from "../../src/shared/time.ts";
import { SimulatedFleet, type SimulatedFleetOptions } from "../../src/sources/simulated-fleet.ts";

const BERLIN: SimulatedFleetOptions = { hosts: 12, gpusPerHost: 8, seed: 42, timezone: "Europe/Berlin" };
/** Monday 2 March 2026, 00:00 in Berlin. */
const MONDAY_MS = Date.UTC(2026, 2, 1, 23, 0);

function busyNow(obs: HostObservation): boolean {
  return obs.ok && obs.gpus.some((gpu) => (gpu.utilPct ?? 0) >= 15);
}

describe("SimulatedFleet", () => {
  it("gives deep-equal readings for the same seed and instant, and for two polls at one instant", () => {
    const a = new SimulatedFleet(BERLIN);
    const b = new SimulatedFleet(BERLIN);
    for (const atMs of [MONDAY_MS, MONDAY_MS + 14 * HOUR_MS + 17_321, MONDAY_MS + 4 * DAY_MS + 3 * HOUR_MS]) {
      const first = a.observe(atMs);
      assert.deepEqual(a.observe(atMs), first);
      assert.deepEqual(b.observe(atMs), first);
    }
    assert.deepEqual(a.roles(), b.roles());
    assert.deepEqual(a.hosts, b.hosts);
  });

  it("gives a different fleet for a different seed", () => {
    const a = new SimulatedFleet(BERLIN);
    const b = new SimulatedFleet({ ...BERLIN, seed: 43 });
    const atMs = MONDAY_MS + 15 * HOUR_MS;
    assert.notDeepEqual(b.observe(atMs), a.observe(atMs));
    const uuidsA = a.observe(atMs).flatMap((obs) => (obs.ok ? obs.gpus.map((gpu) => gpu.uuid) : []));
    const uuidsB = b.observe(atMs).flatMap((obs) => (obs.ok ? obs.gpus.map((gpu) => gpu.uuid) : []));
    assert.equal(
      uuidsA.filter((uuid) => uuidsB.includes(uuid)).length,
      0,
      "no GPU uuid shared between the two fleets",
    );
    const large = new SimulatedFleet({ ...BERLIN, seed: 2 ** 40 + 42 });
    assert.notDeepEqual(large.observe(atMs), a.observe(atMs), "seeds beyond 32 bits are not truncated");
  });

  it("reports the same fleet whatever the poll cadence", () => {
    const everyMinute = new SimulatedFleet(BERLIN);
    const seen = new Map<number, HostObservation[]>();
    for (let atMs = MONDAY_MS + 8 * HOUR_MS; atMs < MONDAY_MS + 36 * HOUR_MS; atMs += MINUTE_MS) {
      seen.set(atMs, everyMinute.observe(atMs));
    }
    const sparse = new SimulatedFleet(BERLIN);
    for (let atMs = MONDAY_MS + 8 * HOUR_MS; atMs < MONDAY_MS + 36 * HOUR_MS; atMs += 37 * MINUTE_MS) {
      assert.deepEqual(sparse.observe(atMs), seen.get(atMs));
    }
    const backwards = new SimulatedFleet(BERLIN);
    for (
      let atMs = MONDAY_MS + 36 * HOUR_MS - MINUTE_MS;
      atMs >= MONDAY_MS + 8 * HOUR_MS;
      atMs -= 113 * MINUTE_MS
    ) {
      assert.deepEqual(backwards.observe(atMs), seen.get(atMs));
      const host = backwards.hosts[(atMs / MINUTE_MS) % 12]!.name;
      assert.deepEqual(
        backwards.observeHost(host, atMs),
        seen.get(atMs)!.find((obs) => obs.host === host),
      );
    }
  });

  it("moves from busy to idle exactly where its ground truth says a run ended", () => {
    const fleet = new SimulatedFleet(BERLIN);
    let runs = 0;
    for (const host of fleet.hosts.filter((h) => h.role === "training")) {
      for (const run of fleet.busyIntervals(host.name, MONDAY_MS, MONDAY_MS + 7 * DAY_MS)) {
        if (run.startMs === MONDAY_MS || run.endMs === MONDAY_MS + 7 * DAY_MS) continue;
        runs++;
        assert.ok(run.endMs - run.startMs >= HOUR_MS, "runs last hours");
        assert.equal(busyNow(fleet.observeHost(host.name, run.startMs - 1)), false);
        assert.equal(busyNow(fleet.observeHost(host.name, run.startMs)), true);
        assert.equal(busyNow(fleet.observeHost(host.name, run.endMs - 1)), true);
        assert.equal(busyNow(fleet.observeHost(host.name, run.endMs)), false);
        assert.equal(fleet.lastBusyAtMs(host.name, run.endMs - 1), run.endMs - 1);
        assert.equal(fleet.lastBusyAtMs(host.name, run.endMs), run.endMs);
        assert.equal(fleet.lastBusyAtMs(host.name, run.endMs + 25 * MINUTE_MS), run.endMs);
      }
    }
    assert.ok(runs >= 8, `${runs} training runs in the week`);
  });

  it("starts training runs and logins in the team's working hours, in its own time zone", () => {
    for (const timezone of ["Europe/Berlin", "America/Los_Angeles", "Asia/Tokyo"]) {
      const fleet = new SimulatedFleet({ ...BERLIN, hosts: 40, timezone });
      let starts = 0;
      for (const host of fleet.hosts.filter((h) => h.role === "training" || h.role === "interactive")) {
        for (const run of fleet.busyIntervals(host.name, MONDAY_MS, MONDAY_MS + 14 * DAY_MS)) {
          if (run.startMs === MONDAY_MS) continue;
          starts++;
          const hour = dayjs(run.startMs).tz(timezone).hour();
          assert.ok(hour >= 8 && hour < 22, `${timezone} ${host.name} work starts at ${hour}:00 local`);
        }
      }
      assert.ok(starts >= 100, `${starts} starts`);
    }
  });

  it("follows the team's calendar across a DST change", () => {
    const fleet = new SimulatedFleet(BERLIN);
    const sundayMs = Date.UTC(2026, 2, 29, 0, 0);
    for (let atMs = sundayMs - DAY_MS; atMs < sundayMs + 2 * DAY_MS; atMs += 30 * MINUTE_MS) {
      assert.equal(fleet.observe(atMs).length, 12);
    }
    for (const host of fleet.hosts.filter((h) => h.role === "training")) {
      for (const run of fleet.busyIntervals(host.name, sundayMs, sundayMs + 3 * DAY_MS)) {
        if (run.startMs === sundayMs) continue;
        const hour = dayjs(run.startMs).tz("Europe/Berlin").hour();
        assert.ok(hour >= 8 && hour < 22, `run starts at ${hour}:00 local`);
      }
    }
  });

  it("reports the inference host busy always and the notebook and forgotten hosts never busy", () => {
    const fleet = new SimulatedFleet(BERLIN);
    const fromMs = MONDAY_MS;
    const toMs = MONDAY_MS + 7 * DAY_MS;
    for (const host of fleet.hosts) {
      const busy = fleet.busyIntervals(host.name, fromMs, toMs);
      if (host.role === "inference") {
        assert.deepEqual(busy, [{ startMs: fromMs, endMs: toMs }]);
        assert.equal(fleet.lastBusyAtMs(host.name, toMs), toMs);
      }
      if (host.role === "notebook" || host.role === "forgotten") {
        assert.deepEqual(busy, []);
        assert.equal(fleet.lastBusyAtMs(host.name, toMs), null);
      }
    }
  });

  it("names hosts gpu-a…, gpu-aa… and node-0001… by fleet size, with the right counts", () => {
    assert.deepEqual(
      new SimulatedFleet({ ...BERLIN, hosts: 3 }).hosts.map((h) => h.name),
      ["gpu-a", "gpu-b", "gpu-c"],
    );
    const thirty = new SimulatedFleet({ ...BERLIN, hosts: 30 }).hosts.map((h) => h.name);
    assert.deepEqual(thirty.slice(24), ["gpu-y", "gpu-z", "gpu-aa", "gpu-ab", "gpu-ac", "gpu-ad"]);
    const thousand = new SimulatedFleet({ ...BERLIN, hosts: 1000 });
    assert.equal(thousand.hosts[0]!.name, "node-0001");
    assert.equal(thousand.hosts[999]!.name, "node-1000");
    const observations = thousand.observe(MONDAY_MS + 11 * HOUR_MS);
    assert.equal(observations.length, 1000);
    assert.equal(
      observations.reduce((sum, obs) => sum + (obs.ok ? obs.gpus.length : 8), 0),
      8000,
    );
    const roles = new Map<string, number>();
    for (const role of thousand.roles().values()) roles.set(role, (roles.get(role) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(roles), {
      training: 498,
      interactive: 150,
      notebook: 90,
      forgotten: 91,
      flaky: 90,
      inference: 81,
    });
    const models = new Map<string, number>();
    for (const host of thousand.hosts) models.set(host.model.name, (models.get(host.model.name) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries([...models].sort()), {
      "NVIDIA A100-SXM4-80GB": 375,
      "NVIDIA GeForce RTX 4090": 125,
      "NVIDIA H100 80GB HBM3": 250,
      "NVIDIA L40S": 250,
    });
  });

  it("handles the extremes: one host with one GPU, and 10,000 hosts", () => {
    const one = new SimulatedFleet({ ...BERLIN, hosts: 1, gpusPerHost: 1 });
    assert.deepEqual([...one.roles()], [["gpu-a", "training"]]);
    for (let atMs = MONDAY_MS; atMs < MONDAY_MS + 2 * DAY_MS; atMs += HOUR_MS) {
      const [obs] = one.observe(atMs);
      assert.ok(obs?.ok);
      assert.deepEqual(
        obs.gpus.map((gpu) => gpu.index),
        [0],
      );
    }
    const huge = new SimulatedFleet({ ...BERLIN, hosts: 10_000, gpusPerHost: 1 });
    assert.equal(huge.hosts[9_999]!.name, "node-10000");
    assert.equal(huge.observe(MONDAY_MS).length, 10_000);
  });

  it("refuses impossible options with a clear message", () => {
    assert.throws(
      () => new SimulatedFleet({ ...BERLIN, hosts: 0 }),
      /hosts must be an integer from 1 to 10000, got 0/,
    );
    assert.throws(
      () => new SimulatedFleet({ ...BERLIN, gpusPerHost: 17 }),
      /gpus_per_host must be an integer from 1 to 16, got 17/,
    );
    assert.throws(
      () => new SimulatedFleet({ ...BERLIN, timezone: "Mars/Olympus" }),
      /unknown time zone "Mars\/Olympus"/,
    );
    assert.throws(
      () => new SimulatedFleet(BERLIN).observeHost("gpu-zz", MONDAY_MS),
      /no host named "gpu-zz"/,
    );
  });
});
