import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { latestStart } from "../../src/usecases/power/start-host.ts";
import { stopHost } from "../../src/usecases/power/stop-host.ts";
import { observed } from "../checks/builders.ts";
import {
  ALICE,
  BotHarness,
  poweroffRuns,
  scriptRuns,
  standardConfig,
  stopScript,
} from "../helpers/bot-harness.ts";

const HOSTS = ["gpu-a", "gpu-b", "gpu-c"] as const;
/** Thursday 1 and Friday 2 January 2026, 11:00 in Berlin (T0 is Monday 5 January, 10:00 there). */
const EARLIER_DAYS_MS = [Date.UTC(2026, 0, 1, 10, 0), Date.UTC(2026, 0, 2, 10, 0)];
/** Tuesday 6 January, 08:20 and 09:00 in Berlin. */
const TUESDAY_0820_MS = Date.UTC(2026, 0, 6, 7, 20);
const TUESDAY_0830_MS = Date.UTC(2026, 0, 6, 7, 30);
const TUESDAY_1000_MS = Date.UTC(2026, 0, 6, 9, 0);
const TUESDAY_1800_MS = Date.UTC(2026, 0, 6, 17, 0);

/** What each host costs an hour (all cloud): gpu-b is the cheapest with the autopilot on. */
const PRICES = { "gpu-a": 24, "gpu-b": 14, "gpu-c": 10 } as const;

/** Three hosts with the stand-in stop and start and a price; gpu-c has the autopilot off. */
const configWith = (startAhead: Record<string, unknown>) => (dir: string) => {
  const raw = standardConfig(
    Object.fromEntries(
      HOSTS.map((host) => [host, { owners: [ALICE], stop: "script", cost_per_hour: PRICES[host] }]),
    ),
    { policy: { idle_for_minutes: 5, protect_minutes: 0, autopilot: { start_ahead: startAhead } } },
    { sleepS: 0 },
  )(dir) as { hosts: Record<string, Record<string, unknown>> };
  const start = stopScript(dir, "poweron", { sleepS: 0 });
  for (const host of HOSTS) raw.hosts[host]!.start = { command: [start, host] };
  raw.hosts["gpu-c"]!.autopilot = false;
  return raw;
};

const reading = (hosts: readonly string[], util: number) => (atMs: number) =>
  hosts.map((host): HostObservation => observed(host, atMs, [0, 0, 0, util], []));
const nothing = () => [];

/**
 * The history (gpu-a busy on Thursday, Friday and Monday, gpu-b on Friday and Monday, gpu-c on all
 * three), the autopilot stopping gpu-a and gpu-b on Monday, Alice stopping gpu-c (with `stopped`:
 * through the bot), then the clock at Tuesday 08:20 with the hours rolled up.
 */
async function stoppedAfterBusyDays(h: BotHarness, { cStopped }: { cStopped: boolean }): Promise<void> {
  for (const dayMs of EARLIER_DAYS_MS) {
    const busy = dayMs === EARLIER_DAYS_MS[0] ? ["gpu-a", "gpu-c"] : ["gpu-a", "gpu-b", "gpu-c"];
    for (let i = 0; i < 5; i++)
      h.metrics.writeCycle(reading(busy, 97)(dayMs + i * MINUTE_MS), dayMs + i * MINUTE_MS);
  }
  h.pollFor(10, reading(HOSTS, 97));
  for (let i = 0; i < 70; i++) {
    const off = poweroffRuns(h);
    h.pollFor(
      1,
      reading(
        HOSTS.filter((host) => !off.includes(host)),
        0,
      ),
    );
    await h.settle();
  }
  assert.deepEqual(poweroffRuns(h).sort(), ["gpu-a", "gpu-b"], "the autopilot stopped the empty hosts");
  if (cStopped) {
    const result = await stopHost(h.deps, { host: "gpu-c", actor: ALICE, reason: "/gpu stop" });
    assert.equal(result.kind, "stopped");
  }
  h.pollFor(2, cStopped ? nothing : reading(["gpu-c"], 0));
  await h.settle();
  h.clock.set(TUESDAY_0820_MS);
  while (!h.metrics.rollup(h.clock.now(), 10, 24 * 7).complete) {}
}

describe("the start-ahead, over the real Bolt app and a real store", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("by default one host, the cheapest to keep on that the bot stopped, is started for the team's morning, once", async () => {
    h = await BotHarness.start({ transport: "socket", config: configWith({}) });
    await stoppedAfterBusyDays(h, { cStopped: true });
    h.runFor(9, nothing);
    assert.equal(h.state.audit.byAction("start").length, 0, "not before 08:30");
    h.runFor(10, nothing);
    await h.emulator.waitFor(() => h.state.audit.byAction("start").length === 1, "the start ran");
    h.runFor(25, nothing);
    await h.settle();
    assert.deepEqual(
      scriptRuns(h.dir, "poweron"),
      ["gpu-b"],
      "gpu-b costs 14/h, gpu-a 24/h; gpu-c (10/h) has the autopilot off; one a morning though gpu-b does not report yet",
    );
    assert.equal(latestStart(h.deps, "gpu-b")?.startedAtMs, TUESDAY_0830_MS);
    assert.equal(latestStart(h.deps, "gpu-b")?.trigger, "morning");
    assert.ok(
      h
        .threadTexts("gpu-b")
        .some((text) =>
          text.startsWith(
            "Starting gpu-b before working hours, for the team's first work of the day: GPUs were busy on each of the last working days, no host has a free GPU, and gpu-b is the cheapest to run. Running",
          ),
        ),
      h.threadTexts("gpu-b").join("\n"),
    );
    assert.equal(
      h.state.snoozes.activeAt("gpu-b", h.clock.now())?.untilMs,
      TUESDAY_1000_MS,
      "kept 60 min into working hours",
    );
    assert.equal(h.state.audit.byAction("keep")[0]?.host, "gpu-b");
  });

  test("nothing is started for the morning while a host reports a GPU with nothing on it", async () => {
    h = await BotHarness.start({ transport: "socket", config: configWith({}) });
    await stoppedAfterBusyDays(h, { cStopped: false });
    h.runFor(30, reading(["gpu-c"], 0));
    await h.settle();
    assert.deepEqual(scriptRuns(h.dir, "poweron"), [], "gpu-c is on with free GPUs");
    assert.equal(h.state.audit.byAction("start").length, 0);
  });

  test("with pick: usual, a host busy on each of the last 3 working days is started 30 min before working hours, once, said in its thread and kept until they end", async () => {
    h = await BotHarness.start({ transport: "socket", config: configWith({ pick: "usual", keep: true }) });
    await stoppedAfterBusyDays(h, { cStopped: true });
    h.runFor(9, nothing);
    assert.equal(latestStart(h.deps, "gpu-a"), null, "not before 08:30");
    h.runFor(10, nothing);
    await h.emulator.waitFor(() => h.state.audit.byAction("start").length === 1, "the start ran");
    assert.deepEqual(
      scriptRuns(h.dir, "poweron"),
      ["gpu-a"],
      "gpu-b missed Thursday; gpu-c's autopilot is off",
    );
    assert.equal(latestStart(h.deps, "gpu-a")?.startedAtMs, TUESDAY_0830_MS);
    assert.equal(latestStart(h.deps, "gpu-a")?.trigger, "usual");
    assert.ok(
      h
        .threadTexts("gpu-a")
        .some((text) =>
          text.startsWith(
            "Starting gpu-a before working hours: it was busy on each of the last working days. Running",
          ),
        ),
      h.threadTexts("gpu-a").join("\n"),
    );
    assert.deepEqual(h.state.snoozes.activeAt("gpu-a", h.clock.now())?.untilMs, TUESDAY_1800_MS);
    assert.equal(h.state.audit.byAction("keep")[0]?.host, "gpu-a");

    h.runFor(120, reading(["gpu-a"], 0));
    await h.settle();
    assert.deepEqual(
      poweroffRuns(h),
      ["gpu-a", "gpu-b", "gpu-c"],
      "nothing on it for 2 h of working hours, and still kept",
    );
    assert.deepEqual(scriptRuns(h.dir, "poweron"), ["gpu-a"], "once");
  });
});
