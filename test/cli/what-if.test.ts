import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import type { GpuReading } from "../../src/domain/observation.ts";
import type { WhatIfReport } from "../../src/domain/what-if-report.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";
import { gpu, okHost, openStore, tempDir } from "../store/store-fixtures.ts";

const MIN = 60_000;
/** Monday 2 March 2026, 06:00 UTC (the team's zone is UTC): 18 hours of readings, one a minute. */
const T0 = Date.UTC(2026, 2, 2, 6, 0);
const MINUTES = 18 * 60;
const hhmm = (h: number, m = 0) => (h - 6) * 60 + m;

/**
 * The known history. gpu-a (cloud, 10/h): busy 06:00–08:00, a 10-minute stage gap with nothing on
 * it, busy 08:10–10:00, then empty. gpu-b (bought: 1.00/h written off + 0.30 upkeep + 1 kW × 0.50 =
 * 1.80/h on, 0.50/h saved by a stop): bob's notebook holds memory at 0 % all day, bob logged in
 * 06:00–12:00.
 */
function gpuA(minute: number): GpuReading {
  const busy = minute < hhmm(8) || (minute >= hhmm(8, 10) && minute < hhmm(10));
  const train = {
    pid: 7,
    user: "alice",
    name: "train.py",
    usedMemoryMiB: 70_000,
    container: null,
    pod: null,
    namespace: null,
  };
  return busy
    ? gpu(0, { utilPct: 90, memUsedMiB: 70_000, powerW: 350, processes: [train] })
    : gpu(0, { utilPct: 0, memUsedMiB: 0 });
}

function gpuB(): GpuReading {
  const kernel = {
    pid: 9,
    user: "bob",
    name: "ipykernel",
    usedMemoryMiB: 20_000,
    container: null,
    pod: null,
    namespace: null,
  };
  return gpu(0, { utilPct: 0, memUsedMiB: 20_000, processes: [kernel] });
}

const dir = tempDir("gw-what-if-");
after(() => dir.remove());
const storePath = dir.file("store.db");
/** A configuration over the store above; `extra` adds top-level sections. */
function configFile(name: string, extra = ""): string {
  const path = dir.file(name);
  writeFileSync(
    path,
    `store: { path: ${storePath} }\n` +
      "costs: { electricity: { price_per_kwh: 0.5 } }\n" +
      "hosts:\n  gpu-a: { cost_per_hour: 10 }\n" +
      "  gpu-b: { purchase_price: 8766, lifetime_months: 12, rated_watts: 1000 }\n" +
      extra,
  );
  return path;
}
const configPath = configFile("gpu-warden.yaml");
const history = openStore(storePath, { sampleSpanMaxMs: 2 * MIN });
for (let minute = 0; minute < MINUTES; minute++) {
  const atMs = T0 + minute * MIN;
  const bob = minute < hhmm(12) ? [{ user: "bob", line: "pts/1", from: null, idleMinutes: 2 }] : [];
  history.store.writeCycle(
    [
      okHost("gpu-a", atMs, { gpus: [gpuA(minute)] }),
      okHost("gpu-b", atMs, { gpus: [gpuB()], sessions: bob }),
    ],
    atMs,
  );
}
history.close();

function whatIfWith(config: string, ...args: string[]) {
  return runCliHere(["what-if", "--since", "2026-03-02", "--config", config, ...args], {
    cwd: dir.file(""),
    env: { LOG_LEVEL: "silent" },
  });
}

const whatIf = (...args: string[]) => whatIfWith(configPath, ...args);

async function autopilotStops(config: string) {
  const result = await whatIfWith(config, "--json", "--policy", "autopilot");
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as WhatIfReport;
  return report.policies[0]!.stops.map((s) => [s.host, s.atMs, s.falseStop]);
}

/**
 * The stops of an "N quiet minutes" rule over gpu-a, recomputed here from the history above
 * without the product's code: the first minute whose last N minutes (both ends included) were all
 * without a GPU busy or memory held; the host is back at the next busy minute.
 */
function quietStops(n: number): Array<{ at: number; back: number | null }> {
  const quiet = (minute: number) => gpuA(minute).utilPct === 0;
  const stops: Array<{ at: number; back: number | null }> = [];
  let floor = 0;
  for (let m = n; m < MINUTES; m++) {
    if (m - n < floor) continue;
    let all = true;
    for (let k = m - n; k <= m; k++) all &&= quiet(k);
    if (!all) continue;
    let back: number | null = null;
    for (let k = m + 1; k < MINUTES && back === null; k++) if (!quiet(k)) back = k;
    stops.push({ at: m, back });
    if (back === null) break;
    floor = back;
    m = back - 1;
  }
  return stops;
}

describe("gpu-warden what-if", () => {
  it("replays the store's readings under each policy: the stops recomputed independently", async () => {
    const policies = [
      "process-autostop-5",
      "process-autostop-30",
      "skypilot-autostop-5",
      "nightly",
      "nightly-smart",
      "autopilot",
    ];
    const result = await whatIf("--json", "--policy", policies.join(","));
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as WhatIfReport;
    assert.deepEqual(
      report.policies.map((p) => p.policy),
      policies,
    );
    const of = (name: string) => report.policies.find((p) => p.policy === name)!;
    for (const n of [5, 30]) {
      const expected = quietStops(n).map((s) => ({
        host: "gpu-a",
        atMs: T0 + s.at * MIN,
        backAtMs: s.back === null ? null : T0 + s.back * MIN,
      }));
      const got = of(`process-autostop-${n}`).stops.map(({ host, atMs, backAtMs }) => ({
        host,
        atMs,
        backAtMs,
      }));
      assert.deepEqual(got, expected, `process-autostop-${n}`);
    }
    // 5 quiet minutes cut the stage gap: alice's run comes back 5 minutes later, a would-be false stop.
    const gap = of("process-autostop-5").stops[0]!;
    assert.equal(gap.atMs, T0 + hhmm(8, 5) * MIN);
    assert.deepEqual(gap.falseStop, { reason: "work-soon", atMs: T0 + hhmm(8, 10) * MIN, owners: null });
    const empty = of("process-autostop-30").stops[0]!;
    assert.equal(empty.atMs, T0 + hhmm(10, 30) * MIN);
    assert.equal(empty.falseStop, null);
    assert.equal(Math.round(empty.offHours * 60), MINUTES - 1 - hhmm(10, 30));
    assert.equal(empty.moneySaved!.toFixed(2), ((10 * (MINUTES - 1 - hhmm(10, 30))) / 60).toFixed(2));
    assert.deepEqual(
      of("skypilot-autostop-5").stops.map((s) => s.atMs),
      of("process-autostop-5").stops.map((s) => s.atMs),
    );

    // Nightly stops both at 19:00; bob's notebook is hit, and the store can tell it was his.
    const nightly = of("nightly").stops;
    assert.deepEqual(
      nightly.map((s) => [s.host, s.atMs]),
      [
        ["gpu-a", T0 + hhmm(19) * MIN],
        ["gpu-b", T0 + hhmm(19) * MIN],
      ],
    );
    const b = nightly[1]!;
    assert.deepEqual(b.falseStop, { reason: "process", atMs: T0 + hhmm(19) * MIN, owners: ["bob"] });
    assert.equal(b.capacityFreed!.toFixed(2), ((1.8 * (MINUTES - 1 - hhmm(19))) / 60).toFixed(2));
    assert.equal(b.moneySaved!.toFixed(2), ((0.5 * (MINUTES - 1 - hhmm(19))) / 60).toFixed(2));
    assert.deepEqual(
      of("nightly-smart").stops.map((s) => s.host),
      ["gpu-a"],
    );

    // The autopilot, as configured by default (empty 30 min, stale 18 h, warning 30 min, Mon–Fri
    // 09:00–18:00): gpu-a is empty since 10:00; its idle episode (and alert) opens at 10:30 (idle
    // since 10:00 for 30 min; protection 2 h from the busy stretch of 08:10 ended at 10:10); it has
    // been empty 30 min by then, so it is warned at 10:30 and stopped 30 minutes later. bob's
    // notebook holds memory, so gpu-b is never empty, and its GPUs have been idle only since he
    // logged out at 12:00: not 18 h by midnight.
    assert.deepEqual(
      of("autopilot").stops.map((s) => [s.host, s.atMs, s.falseStop]),
      [["gpu-a", T0 + hhmm(11) * MIN, null]],
    );
  });

  it("replays the autopilot with the team's thresholds, working hours and holidays", async () => {
    // Empty 45 min: gpu-a is warned at 10:45 (empty since 10:00), stopped at 11:15. Stale 6 h:
    // gpu-b's GPUs idle and no input since 12:00, stale at 18:00, which is inside working hours
    // (to 19:00): warned 30 min before they end (18:30), stopped at 19:00. The stop hits bob's
    // notebook (memory held): listed as a would-be false stop with its owner.
    const tuned = "policy: { autopilot: { empty_minutes: 45, stale_hours: 6 } }\n";
    const bobHit = { reason: "process", atMs: T0 + hhmm(19) * MIN, owners: ["bob"] };
    assert.deepEqual(
      await autopilotStops(configFile("late.yaml", `${tuned}team: { working_hours: { to: "19:00" } }\n`)),
      [
        ["gpu-a", T0 + hhmm(11, 15) * MIN, null],
        ["gpu-b", T0 + hhmm(19) * MIN, bobHit],
      ],
    );
    // The same Monday a holiday: the autopilot stops no session on a day off (its person cannot be
    // asked at home), so gpu-b's notebook is left for Tuesday evening, after the replayed span.
    assert.deepEqual(
      await autopilotStops(configFile("holiday.yaml", `${tuned}team: { holidays: ["2026-03-02"] }\n`)),
      [["gpu-a", T0 + hhmm(11, 15) * MIN, null]],
    );
  });

  it("prints a table and a CSV, and refuses a policy or a span it does not know", async () => {
    const table = await whatIf("--policy", "nightly");
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^what-if 2026-03-02 06:00 … 2026-03-02 23:59 \(UTC\), EUR/);
    assert.match(table.stdout, /\nnightly {2,}2 {2,}10\.0 {2,}58\.80 {2,}52\.33 {2,}1\n/);
    assert.match(table.stdout, /gpu-b at 2026-03-02 19:00: a GPU process held memory; owner bob/);
    const csv = await whatIf("--csv", "--policy", "nightly");
    const lines = csv.stdout.trim().split("\r\n");
    assert.equal(
      lines[0],
      "policy,host,stop_at,idle_since,back_at,off_hours,capacity_freed,money_saved,currency,would_be_false_stop,false_stop_at,owners",
    );
    assert.equal(
      lines[2],
      "nightly,gpu-b,2026-03-02T19:00:00.000Z,2026-03-02T12:00:00.000Z,,4.983,8.97,2.49,EUR,process,2026-03-02T19:00:00.000Z,bob",
    );
    const bad = await whatIf("--policy", "autostop-5");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown policy autostop-5: use autopilot, process-autostop-N/);
  });
});
