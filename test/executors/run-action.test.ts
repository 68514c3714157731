import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { actionSchema } from "../../src/config/schema.ts";
import { runAction } from "../../src/executors/run-action.ts";

const context = {
  host: "gpu-a",
  actor: "U024BE7LH",
  reason: "idle 3 h",
  forced: false,
  atMs: Date.UTC(2026, 11, 2, 9),
};

describe("runAction", () => {
  it("runs an argv without a shell and keeps the output tail and exit code", async () => {
    const action = actionSchema.parse({
      command: ["sh", "-c", "echo stopping $0; exit 3", "gpu a; rm -rf /"],
    });
    const outcome = await runAction(action, context, { dryRun: false });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.exitCode, 3);
    assert.equal(outcome.outputTail, "stopping gpu a; rm -rf /");
    assert.equal(outcome.description, `sh -c 'echo stopping $0; exit 3' 'gpu a; rm -rf /'`);
  });

  it("kills a command that hangs at its timeout and reports it as failed", async () => {
    const action = actionSchema.parse({
      command: ["sh", "-c", "echo powering off; exec sleep 30"],
      timeout_seconds: 0.3,
    });
    const outcome = await runAction(action, context, { dryRun: false });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.timedOut, true);
    assert.match(outcome.outputTail, /killed after 0.3 s/);
    assert.equal(outcome.outputTail, "powering off\n(killed after 0.3 s)");
  });

  it("in dry-run mode only says what would run", async () => {
    const action = actionSchema.parse({ command: ["touch", "/tmp/gw-must-not-exist"] });
    const outcome = await runAction(action, context, { dryRun: true });
    assert.deepEqual(
      { ok: outcome.ok, dryRun: outcome.dryRun, description: outcome.description },
      { ok: true, dryRun: true, description: "touch /tmp/gw-must-not-exist" },
    );
  });

  it("posts a webhook with the host, actor and configured body", async () => {
    const received: { method?: string; body: string; auth?: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push({ method: req.method ?? "", body, auth: req.headers.authorization ?? "" });
        res.writeHead(202).end("instance stopping");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stop`;
    try {
      process.env.GW_RUN_ACTION_TOKEN = "t";
      const action = actionSchema.parse({
        webhook: url,
        headers: { authorization: { env: "GW_RUN_ACTION_TOKEN", prefix: "Bearer " } },
        body: { zone: "eu-1" },
      });
      const outcome = await runAction(action, context, { dryRun: false });
      assert.equal(outcome.ok, true);
      assert.equal(outcome.exitCode, 202);
      assert.equal(outcome.outputTail, "instance stopping");
      assert.equal(received.length, 1);
      assert.equal(received[0]?.auth, "Bearer t");
      assert.deepEqual(JSON.parse(received[0]?.body ?? ""), {
        zone: "eu-1",
        host: "gpu-a",
        actor: "U024BE7LH",
        reason: "idle 3 h",
        forced: false,
        at: "2026-12-02T09:00:00.000Z",
      });
    } finally {
      server.close();
    }
  });

  it("reports a webhook that cannot be reached", async () => {
    const action = actionSchema.parse({ webhook: "http://127.0.0.1:1/stop" });
    const outcome = await runAction(action, context, { dryRun: false });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.outputTail, /fetch failed/);
  });
});
