import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import type { Clock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createSources } from "../../src/sources/create-sources.ts";
import { pollFleet } from "../../src/usecases/fleet/poll-fleet.ts";
import { ALICE, BOB, BotHarness, standardConfig } from "../helpers/bot-harness.ts";
import { formatExposition, type RunningPrometheus } from "../helpers/prometheus.ts";
import { startVictoriaMetrics } from "../helpers/victoria-metrics.ts";
import { header, shownText } from "./idle-alerts-rig.ts";

/** node-17 with two idle GPUs, as dcgm-exporter serves it in either cluster. */
function idleNode17(): string {
  return formatExposition(
    [0, 1].flatMap((gpu) => {
      const labels = { Hostname: "node-17", gpu: String(gpu), UUID: `GPU-${gpu}`, modelName: "NVIDIA H100" };
      return [
        { name: "DCGM_FI_DEV_GPU_UTIL", labels, value: 0 },
        { name: "DCGM_FI_DEV_FB_USED", labels, value: 0 },
        { name: "DCGM_FI_DEV_FB_FREE", labels, value: 81000 },
        { name: "DCGM_FI_DEV_POWER_USAGE", labels, value: 60 },
        { name: "DCGM_FI_DEV_GPU_TEMP", labels, value: 30 },
      ];
    }),
  );
}

const systemTime: Clock = { now: () => Date.now() };

describe("two clusters with the same host name", { timeout: 120_000 }, () => {
  let a: RunningPrometheus;
  let b: RunningPrometheus;
  let h: BotHarness | null = null;

  before(async () => {
    [a, b] = await Promise.all([
      startVictoriaMetrics({ exporter: idleNode17 }),
      startVictoriaMetrics({ exporter: idleNode17 }),
    ]);
    await Promise.all([a.waitFor("DCGM_FI_DEV_FB_USED", 2), b.waitFor("DCGM_FI_DEV_FB_USED", 2)]);
  });

  after(async () => {
    await h?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  test("hosts are named cluster/host; one source down makes only its hosts unknown while the other alerts", async () => {
    const source = (cluster: string, url: string) => ({
      kind: "prometheus",
      cluster,
      url,
      containers: false,
      history_days: 0,
    });
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        {
          "a/node-17": { owners: [ALICE], cost_per_hour: 4 },
          "b/node-17": { owners: [BOB], cost_per_hour: 4 },
        },
        { sources: [source("a", a.url), source("b", b.url)] },
      ),
    });
    const sources = createSources(h.config, {
      clock: systemTime,
      logger: silentLogger,
      hostName: "bot",
      pathEnv: "",
    });
    const poll = () =>
      pollFleet({
        sources,
        store: null,
        clock: systemTime,
        logger: silentLogger,
        metrics: null,
        timeoutMs: 10_000,
      });
    const both = await poll();
    assert.deepEqual(both.observations.map((observation) => [observation.host, observation.ok]).sort(), [
      ["a/node-17", true],
      ["b/node-17", true],
    ]);

    await b.stopServer();
    const oneDown = await poll();
    const shown = oneDown.observations
      .map((observation) => [observation.host, observation.ok ? "ok" : observation.cause])
      .sort();
    assert.deepEqual(shown, [
      ["a/node-17", "ok"],
      ["b/node-17", "unreachable"],
    ]);

    const restamped = (atMs: number): HostObservation[] =>
      oneDown.observations.map((observation) => ({ ...observation, atMs }));
    h.pollFor(35, restamped);
    await h.settle();

    assert.equal(header(h.alertMessage("a/node-17")), "💤 a/node-17 is idle");
    assert.match(shownText(h.alertMessage("a/node-17")), /^\*a\/node-17\* has been idle since/m);
    assert.equal(h.state.alerts.openFor("b/node-17", "idle"), null, "unknown is never idle");

    await h.user.slashCommand({ user: BOB, text: "status cluster=a" });
    const board = shownText(h.latestEphemeral(BOB) as never);
    assert.match(board, /a\/node-17/);
    assert.doesNotMatch(board, /b\/node-17/);

    await h.user.slashCommand({ user: BOB, text: "status b/node-17" });
    assert.match(shownText(h.latestEphemeral(BOB) as never), /^\*b\/node-17\* · /m);
    await h.closeChecked();
    h = null;
  });
});
