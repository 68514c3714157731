import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import { failed, type HostObservation } from "../../src/domain/observation.ts";
import type { Source } from "../../src/domain/source.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createSources } from "../../src/sources/create-sources.ts";
import { pollFleet } from "../../src/usecases/fleet/poll-fleet.ts";
import { ALICE, BOB, BotHarness, standardConfig, T0 } from "../helpers/bot-harness.ts";
import { type HistorySeries, type RunningPrometheus, sleep, startPrometheus } from "../helpers/prometheus.ts";
import { header } from "./idle-alerts-rig.ts";

/** node-17's two GPUs idle from an hour before T0 to an hour after, one sample a minute. */
function idleHistory(): HistorySeries[] {
  const at: number[] = [];
  for (let t = T0 - 60 * MINUTE_MS; t <= T0 + 60 * MINUTE_MS; t += MINUTE_MS) at.push(t);
  const fields: [string, number][] = [
    ["DCGM_FI_DEV_GPU_UTIL", 0],
    ["DCGM_FI_DEV_FB_USED", 0],
    ["DCGM_FI_DEV_FB_FREE", 81000],
    ["DCGM_FI_DEV_POWER_USAGE", 60],
    ["DCGM_FI_DEV_GPU_TEMP", 30],
  ];
  return fields.flatMap(([name, value]) =>
    [0, 1].map((gpu) => ({
      name,
      labels: { Hostname: "node-17", gpu: String(gpu), UUID: `GPU-${gpu}`, modelName: "NVIDIA H100" },
      points: at.map((t): [number, number] => [t, value]),
    })),
  );
}

/**
 * A Prometheus in front of the real one: it passes requests on until `hang` is set, then accepts them
 * and never answers. It counts the connections of the requests it holds that are still open.
 */
interface HangingProxy {
  url: string;
  hang: boolean;
  /** Requests held without an answer so far. */
  held: number;
  /** Held requests whose connection the client has not closed yet. */
  openHeld(): number;
  close(): Promise<void>;
}

async function startHangingProxy(upstream: string): Promise<HangingProxy> {
  const heldSockets = new Set<Socket>();
  const proxy: HangingProxy = {
    url: "",
    hang: false,
    held: 0,
    openHeld: () => heldSockets.size,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const pass = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await fetch(new URL(request.url ?? "/", upstream), {
      method: request.method ?? "GET",
      headers: { "content-type": request.headers["content-type"] ?? "text/plain" },
      ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
    });
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
    response.end(Buffer.from(await answer.arrayBuffer()));
  };
  const server: Server = createServer((request, response) => {
    if (!proxy.hang) {
      pass(request, response).catch(() => response.destroy());
      return;
    }
    proxy.held++;
    heldSockets.add(request.socket);
    request.socket.once("close", () => heldSockets.delete(request.socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** Up to `ms` of wall time for the client side of held requests to be closed (closing is asynchronous). */
async function heldClosed(proxy: HangingProxy, ms: number): Promise<number> {
  const until = Date.now() + ms;
  while (proxy.openHeld() > 0 && Date.now() < until) await sleep(20);
  return proxy.openHeld();
}

describe("a source that hangs", { timeout: 120_000 }, () => {
  test("a poll that ignores its signal is given up at the source's deadline: only its hosts are unknown", async () => {
    const clock = new ManualClock(T0);
    const healthy: Source = {
      kind: "local",
      hosts: ["box-1"],
      poll: async () => [failed("box-1", "local", T0, "error", "a reading of its own")],
    };
    const hung: Source = {
      kind: "prometheus",
      hosts: ["box-2"],
      pollDeadlineMs: 50,
      poll: () => new Promise<HostObservation[]>(() => {}),
    };
    const result = await pollFleet({
      sources: [healthy, hung],
      store: null,
      clock,
      logger: silentLogger,
      metrics: null,
      timeoutMs: 3_600_000,
    });
    const shown = result.observations.map((obs) => [
      obs.host,
      obs.ok ? "ok" : obs.cause,
      obs.ok ? "" : obs.message,
    ]);
    assert.deepEqual(shown, [
      ["box-1", "error", "a reading of its own"],
      ["box-2", "timeout", "box-2: prometheus source failed: no answer within 0.05 s"],
    ]);
  });

  describe("two clusters, one behind a server that accepts and never answers", () => {
    let prom: RunningPrometheus;
    let proxy: HangingProxy;
    let h: BotHarness | null = null;

    before(async () => {
      prom = await startPrometheus({ backfill: idleHistory() });
      proxy = await startHangingProxy(prom.url);
    });

    after(async () => {
      await h?.close();
      await proxy?.close();
      await prom?.stop();
    });

    test("the healthy cluster's idle host alerts on time, the hung cluster's hosts are unknown, its requests aborted", async () => {
      const source = (cluster: string, url: string, timeoutS: number) => ({
        kind: "prometheus",
        cluster,
        url,
        containers: false,
        history_days: 0,
        timeout_seconds: timeoutS,
      });
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
      process.on("warning", onWarning);
      h = await BotHarness.start({
        transport: "socket",
        config: standardConfig(
          {
            "a/node-17": { owners: [ALICE], cost_per_hour: 4 },
            "b/node-17": { owners: [BOB], cost_per_hour: 4 },
          },
          {
            policy: { idle_for_minutes: 2 },
            sources: [source("a", prom.url, 30), source("b", proxy.url, 2)],
          },
        ),
        sources: (config, clock) =>
          createSources(config, { clock, logger: silentLogger, hostName: "bot", pathEnv: "" }),
      });
      try {
        await h.pollSources();
        proxy.hang = true;
        for (let minute = 1; minute <= 3; minute++) {
          h.clock.advance(MINUTE_MS);
          await h.pollSources();
        }
      } finally {
        process.off("warning", onWarning);
      }
      await h.settle();

      const seen = h.polled.map((poll) =>
        poll.observations.map((obs) => `${obs.host} ${obs.ok ? "ok" : obs.cause}`).sort(),
      );
      assert.deepEqual(seen[0], ["a/node-17 ok", "b/node-17 ok"]);
      for (const poll of seen.slice(1)) assert.deepEqual(poll, ["a/node-17 ok", "b/node-17 timeout"]);

      const alert = h.state.alerts.openFor("a/node-17", "idle");
      assert.equal(header(h.alertMessage("a/node-17")), "💤 a/node-17 is idle");
      assert.equal(alert?.openedAtMs, T0 + 2 * MINUTE_MS, "posted at the poll that completed 2 idle minutes");
      assert.equal(h.state.alerts.openFor("b/node-17", "idle"), null, "unknown is never idle");

      assert.ok(proxy.held >= 3, `every hung poll reached the server (${proxy.held} requests held)`);
      assert.equal(
        await heldClosed(proxy, 10_000),
        0,
        "the held requests' connections were closed by the bot",
      );
      assert.deepEqual(warnings, []);
      assert.deepEqual(h.problems(), Array(3).fill("source failed; its hosts are unknown"));
      h.logs.length = 0;
      await h.closeChecked();
      h = null;
    });
  });
});
