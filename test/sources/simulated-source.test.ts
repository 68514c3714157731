import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { HOUR_MS, ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { dayjs } from "../../src/shared/time.ts";
import { INFERENCE_USER, NOTEBOOK_PROCESS, TEAM_USERS } from "../../src/sources/simulated-activity.ts";
import { createSimulatedSource, type SimulatedSource } from "../../src/sources/simulated-source.ts";

const ZONE = "Europe/Berlin";
/** Monday 2 March 2026, 00:00 in Berlin. */
const WEEK_START_MS = Date.UTC(2026, 2, 1, 23, 0);
const STEP_MS = 10 * MINUTE_MS;
const WEEK_POLLS = (7 * 24 * HOUR_MS) / STEP_MS;

/** Model → [MiB the kernel holds (30 GiB, or 85 % of a smaller card), memory.used with it]. */
const NOTEBOOK_MEMORY: Record<string, [number, number]> = {
  "NVIDIA H100 80GB HBM3": [30_720, 30_720],
  "NVIDIA A100-SXM4-80GB": [30_720, 30_724],
  "NVIDIA L40S": [30_720, 30_720],
  "NVIDIA GeForce RTX 4090": [20_879, 20_880],
};

type Ok = Extract<HostObservation, { ok: true }>;

function isBusy(obs: Ok): boolean {
  return obs.gpus.some((gpu) => (gpu.utilPct ?? 0) >= 15);
}

function sessionCount(obs: HostObservation): number {
  return obs.ok ? (obs.sessions?.length ?? 0) : 0;
}

/** Every host is polled at the same instants: each one's local hour and weekday, worked out once. */
const localTimes = new Map<number, { hour: number; weekday: number }>();

function localTime(atMs: number): { hour: number; weekday: number } {
  let time = localTimes.get(atMs);
  if (time === undefined) {
    const local = dayjs(atMs).tz(ZONE);
    time = { hour: local.hour(), weekday: local.day() };
    localTimes.set(atMs, time);
  }
  return time;
}

function localHour(atMs: number): number {
  return localTime(atMs).hour;
}

function isWeekend(atMs: number): boolean {
  const { weekday } = localTime(atMs);
  return weekday === 0 || weekday === 6;
}

describe("simulated source over a week driven by a ManualClock", () => {
  const clock = new ManualClock(WEEK_START_MS);
  let source: SimulatedSource;
  /** host → one observation per poll, in time order. */
  const byHost = new Map<string, HostObservation[]>();
  const hostsWithRole = (role: string) =>
    source.fleet.hosts.filter((host) => host.role === role).map((host) => host.name);

  before(async () => {
    source = createSimulatedSource(
      { kind: "simulated", hosts: 12, gpus_per_host: 8, seed: 42 },
      { clock, timezone: ZONE },
    );
    const signal = new AbortController().signal;
    for (let i = 0; i < WEEK_POLLS; i++) {
      for (const obs of await source.poll(signal)) {
        const list = byHost.get(obs.host) ?? [];
        list.push(obs);
        byHost.set(obs.host, list);
      }
      clock.advance(STEP_MS);
    }
  });

  it("reports every host at the clock's instant, in host order", () => {
    assert.equal(source.kind, "simulated");
    assert.deepEqual(source.hosts, [
      "gpu-a",
      "gpu-b",
      "gpu-c",
      "gpu-d",
      "gpu-e",
      "gpu-f",
      "gpu-g",
      "gpu-h",
      "gpu-i",
      "gpu-j",
      "gpu-k",
      "gpu-l",
    ]);
    for (const host of source.hosts) {
      const list = byHost.get(host)!;
      assert.equal(list.length, WEEK_POLLS);
      assert.equal(list[0]!.atMs, WEEK_START_MS);
      assert.equal(list[5]!.atMs, WEEK_START_MS + 5 * STEP_MS);
      assert.ok(list.every((obs) => obs.source === "simulated"));
    }
  });

  it("scripts every notable role in the default twelve-host fleet", () => {
    const counts = new Map<string, number>();
    for (const role of source.fleet.roles().values()) counts.set(role, (counts.get(role) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(counts), {
      training: 4,
      interactive: 2,
      notebook: 2,
      forgotten: 2,
      flaky: 1,
      inference: 1,
    });
  });

  it("runs training for hours at 85–100 % with memory mostly full, power near the limit, python processes", () => {
    let longestRunMs = 0;
    let checkedSamples = 0;
    for (const host of hostsWithRole("training")) {
      let runStartMs: number | null = null;
      for (const obs of byHost.get(host)!) {
        assert.ok(obs.ok);
        if (isBusy(obs)) {
          runStartMs ??= obs.atMs;
          longestRunMs = Math.max(longestRunMs, obs.atMs - runStartMs + STEP_MS);
        } else {
          runStartMs = null;
        }
        for (const gpu of obs.gpus) {
          const training = gpu.processes.filter((p) => p.name.startsWith("python "));
          if ((gpu.utilPct ?? 0) < 15 || training.length !== 1) continue;
          checkedSamples++;
          assert.ok(gpu.utilPct! >= 85 && gpu.utilPct! <= 100, `util ${gpu.utilPct}`);
          assert.ok(gpu.memUsedMiB! >= 0.6 * gpu.memTotalMiB!, `memory ${gpu.memUsedMiB}/${gpu.memTotalMiB}`);
          const limitW = { "NVIDIA H100 80GB HBM3": 700, "NVIDIA A100-SXM4-80GB": 400, "NVIDIA L40S": 350 }[
            gpu.model as "NVIDIA L40S"
          ];
          if (limitW !== undefined) assert.ok(gpu.powerW! >= 0.7 * limitW && gpu.powerW! <= limitW);
          const [process] = training;
          assert.ok(TEAM_USERS.includes(process!.user!));
          assert.ok(Number.isInteger(process!.pid) && process!.pid! > 1);
        }
      }
    }
    assert.ok(longestRunMs >= 6 * HOUR_MS, `longest training run ${longestRunMs / HOUR_MS} h`);
    assert.ok(checkedSamples > 1000, `${checkedSamples} busy GPU samples`);
  });

  it("leaves training hosts mostly idle at night and at weekends", () => {
    const share = (pick: (atMs: number) => boolean) => {
      let busy = 0;
      let all = 0;
      for (const host of hostsWithRole("training")) {
        for (const obs of byHost.get(host)!) {
          if (!obs.ok || !pick(obs.atMs)) continue;
          all++;
          if (isBusy(obs)) busy++;
        }
      }
      return busy / all;
    };
    const workingHours = share((t) => !isWeekend(t) && localHour(t) >= 10 && localHour(t) < 17);
    const nights = share((t) => !isWeekend(t) && localHour(t) >= 1 && localHour(t) < 6);
    const weekend = share((t) => isWeekend(t));
    assert.ok(workingHours >= 0.4, `working hours ${workingHours}`);
    assert.ok(nights <= workingHours / 2, `nights ${nights} vs working hours ${workingHours}`);
    assert.ok(weekend <= workingHours / 2, `weekend ${weekend} vs working hours ${workingHours}`);
  });

  it("keeps the forgotten hosts idle all week: memory free, no processes, nobody logged in", () => {
    const forgotten = hostsWithRole("forgotten");
    assert.equal(forgotten.length, 2);
    for (const host of forgotten) {
      for (const obs of byHost.get(host)!) {
        assert.ok(obs.ok, `${host} answers`);
        assert.deepEqual(obs.sessions, []);
        for (const gpu of obs.gpus) {
          assert.equal(gpu.utilPct, 0);
          assert.ok(gpu.memUsedMiB! <= 4);
          assert.deepEqual(gpu.processes, []);
          assert.ok(gpu.powerW! < 0.2 * 700);
        }
      }
      assert.equal(source.fleet.lastBusyAtMs(host, clock.now()), null);
    }
  });

  it("shows the notebook hosts at 0 % with ~30 GiB held by a named Jupyter kernel all week", () => {
    for (const host of hostsWithRole("notebook")) {
      const owner = source.fleet.host(host)!.owner;
      const pids = new Set<number | null>();
      for (const obs of byHost.get(host)!) {
        assert.ok(obs.ok);
        assert.deepEqual(obs.sessions, []);
        assert.ok(obs.gpus.every((gpu) => gpu.utilPct === 0));
        const gpu0 = obs.gpus[0]!;
        assert.equal(gpu0.processes.length, 1);
        const [kernel] = gpu0.processes;
        assert.equal(kernel!.name, NOTEBOOK_PROCESS);
        assert.equal(kernel!.user, owner);
        const [heldMiB, usedMiB] = NOTEBOOK_MEMORY[gpu0.model!]!;
        assert.equal(kernel!.usedMemoryMiB, heldMiB);
        assert.equal(gpu0.memUsedMiB, usedMiB);
        pids.add(kernel!.pid);
      }
      assert.equal(pids.size, 1, "the same kernel all week");
      assert.equal(source.fleet.lastBusyAtMs(host, clock.now()), null);
    }
  });

  it("has the flaky host drop off now and then with a failed 'unreachable' observation, never zeros", () => {
    const [flaky] = hostsWithRole("flaky");
    const list = byHost.get(flaky!)!;
    const down = list.filter((obs) => !obs.ok);
    const up = list.filter((obs) => obs.ok);
    assert.ok(down.length >= 3, `${down.length} failed polls`);
    assert.ok(up.length > down.length * 10, `${up.length} good polls`);
    for (const obs of down) {
      assert.deepEqual(obs, {
        host: flaky,
        source: "simulated",
        atMs: obs.atMs,
        ok: false,
        cause: "unreachable",
        message: `${flaky}: unreachable: no route to host (simulated outage)`,
      });
      assert.ok(!("gpus" in obs));
      assert.notEqual(source.fleet.outageAt(flaky!, obs.atMs), null);
    }
    for (const obs of up) assert.equal(source.fleet.outageAt(flaky!, obs.atMs), null);
    for (const host of source.hosts) {
      if (host !== flaky)
        assert.ok(
          byHost.get(host)!.every((obs) => obs.ok),
          `${host} never drops off`,
        );
    }
  });

  it("keeps the inference host at a steady moderate load day and night", () => {
    const [inference] = hostsWithRole("inference");
    const utils: number[] = [];
    for (const obs of byHost.get(inference!)!) {
      assert.ok(obs.ok);
      for (const gpu of obs.gpus) {
        assert.ok(gpu.utilPct! >= 15 && gpu.utilPct! <= 70, `util ${gpu.utilPct}`);
        assert.equal(gpu.processes.length, 1);
        assert.equal(gpu.processes[0]!.user, INFERENCE_USER);
        utils.push(gpu.utilPct!);
      }
    }
    const mean = utils.reduce((a, b) => a + b, 0) / utils.length;
    assert.ok(mean >= 25 && mean <= 50, `mean ${mean}`);
  });

  it("shows people logged in over SSH on some hosts, in working hours", () => {
    let sessions = 0;
    for (const [host, list] of byHost) {
      for (const obs of list) {
        if (!obs.ok) continue;
        for (const session of obs.sessions!) {
          sessions++;
          assert.ok(TEAM_USERS.includes(session.user), `${host}: ${session.user}`);
          assert.match(session.line, /^pts\/[0-3]$/);
          assert.match(session.from!, /^10\.20\.0\.\d+$/);
          assert.ok(Number.isInteger(session.idleMinutes) && session.idleMinutes! >= 0);
        }
      }
    }
    assert.ok(sessions > 100, `${sessions} sessions seen`);
    const interactive = hostsWithRole("interactive");
    const loggedInWhileIdle = interactive.some((host) =>
      byHost.get(host)!.some((obs) => obs.ok && obs.sessions!.length > 0 && !isBusy(obs)),
    );
    assert.ok(loggedInWhileIdle, "someone logged in on an interactive host while its GPUs idle");
    let logins = 0;
    for (const host of interactive) {
      const list = byHost.get(host)!;
      list.forEach((obs, i) => {
        if (i === 0 || sessionCount(obs) === 0 || sessionCount(list[i - 1]!) > 0) return;
        logins++;
        const hour = localHour(obs.atMs);
        assert.ok(hour >= 8 && hour < 12, `${host} login at ${hour}:00`);
      });
    }
    assert.ok(logins >= 5, `${logins} logins on interactive hosts`);
  });

  it("agrees with its ground truth: busy readings exactly when lastBusyAtMs is now", () => {
    for (const [host, list] of byHost) {
      for (const obs of list) {
        if (!obs.ok) continue;
        const busyNow = source.fleet.lastBusyAtMs(host, obs.atMs) === obs.atMs;
        assert.equal(isBusy(obs), busyNow, `${host} at ${new Date(obs.atMs).toISOString()}`);
      }
    }
  });

  it("keeps every reading within its bounds", () => {
    const uuids = new Map<string, string>();
    for (const [host, list] of byHost) {
      for (const obs of list) {
        if (!obs.ok) continue;
        assert.deepEqual(
          obs.gpus.map((gpu) => gpu.index),
          [0, 1, 2, 3, 4, 5, 6, 7],
        );
        for (const gpu of obs.gpus) {
          assert.ok(Number.isInteger(gpu.utilPct) && gpu.utilPct! >= 0 && gpu.utilPct! <= 100);
          assert.ok(Number.isInteger(gpu.memUsedMiB) && gpu.memUsedMiB! >= 0);
          assert.ok(gpu.memUsedMiB! <= gpu.memTotalMiB!);
          const held = gpu.processes.reduce((sum, p) => sum + p.usedMemoryMiB!, 0);
          assert.ok(held <= gpu.memUsedMiB!);
          assert.ok(gpu.powerW! > 10 && gpu.powerW! <= 700);
          assert.ok(Number.isInteger(gpu.tempC) && gpu.tempC! >= 25 && gpu.tempC! <= 85);
          assert.equal(gpu.mig, false);
          assert.match(gpu.uuid!, /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
          const key = `${host}:${gpu.index}`;
          assert.equal(uuids.get(key) ?? gpu.uuid, gpu.uuid, `uuid of ${key} is stable`);
          uuids.set(key, gpu.uuid!);
        }
        assert.ok(obs.cpuLoad1! >= 0 && obs.cpuUtilPct! >= 0 && obs.cpuUtilPct! <= 100);
        assert.deepEqual(obs.containers, []);
      }
    }
    assert.equal(new Set(uuids.values()).size, 12 * 8, "uuids are unique");
  });

  it("rejects a poll whose signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("cycle cancelled"));
    await assert.rejects(source.poll(controller.signal), /cycle cancelled/);
  });
});
