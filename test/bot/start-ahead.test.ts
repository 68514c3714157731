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
const TUESDAY_1800_MS = Date.UTC(2026, 0, 6, 17, 0);

/** Three hosts with the stand-in stop and start; gpu-c has the autopilot off. */
function config(dir: string) {
  const raw = standardConfig(
    Object.fromEntries(HOSTS.map((host) => [host, { owners: [ALICE], stop: "script" }])),
    { policy: { idle_for_minutes: 5, protect_minutes: 0, autopilot: { start_ahead: { keep: true } } } },
    { sleepS: 0 },
  )(dir) as { hosts: Record<string, Record<string, unknown>> };
  const start = stopScript(dir, "poweron", { sleepS: 0 });
  for (const host of HOSTS) raw.hosts[host]!.start = { command: [start, host] };
  raw.hosts["gpu-c"]!.autopilot = false;
  return raw;
}

const reading = (hosts: readonly string[], util: number) => (atMs: number) =>
  hosts.map((host): HostObservation => observed(host, atMs, [0, 0, 0, util], []));
const nothing = () => [];

describe("the start-ahead, over the real Bolt app and a real store", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("a host busy on each of the last 3 working days is started 30 min before working hours, once, said in its thread and kept until they end", async () => {
    h = await BotHarness.start({ transport: "socket", config });
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
    assert.deepEqual(poweroffRuns(h), ["gpu-a", "gpu-b"], "the autopilot stopped the empty hosts");
    const result = await stopHost(h.deps, { host: "gpu-c", actor: ALICE, reason: "/gpu stop" });
    assert.equal(result.kind, "stopped");
    h.pollFor(2, nothing);
    await h.settle();
    h.clock.set(TUESDAY_0820_MS);
    while (!h.metrics.rollup(h.clock.now(), 10, 24 * 7).complete) {}
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
