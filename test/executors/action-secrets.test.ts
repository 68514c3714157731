import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseConfig } from "../../src/config/load-config.ts";
import { runAction } from "../../src/executors/run-action.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";

const context = { host: "gpu-a", actor: "U0ALICE", reason: "test", forced: false, atMs: 0 };

/** A webhook on 127.0.0.1 that records the headers and body of every request. */
function recorder(): Promise<{
  server: Server;
  url: string;
  seen: { headers: IncomingHttpHeaders; body: string }[];
}> {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      seen.push({ headers: request.headers, body });
      response.writeHead(request.headers.authorization === "Bearer from-env" ? 202 : 401).end("ok");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/start`, seen });
    });
  });
}

/** `gpu-warden check-config --config FILE` in this process: its exit code and everything it printed. */
async function checkConfig(file: string): Promise<{ code: number; out: string }> {
  const run = await runCliHere(["check-config", "--config", file], { cwd: tmpdir(), env: {} });
  return { code: run.code, out: run.output };
}

describe("webhook secrets from the environment or a file", () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-secrets-"));
  let hook: Awaited<ReturnType<typeof recorder>>;
  before(async () => {
    hook = await recorder();
  });
  after(() => {
    hook.server.close();
    rmSync(dir, { recursive: true, force: true });
    delete process.env.GW_TEST_START_TOKEN;
  });

  const webhook = (headers: Record<string, unknown>, body: Record<string, unknown> = {}) =>
    parseConfig({ hosts: { "gpu-a": { start: { webhook: hook.url, headers, body } } } }).hosts["gpu-a"]!
      .start!;

  test("an Authorization header from an environment variable reaches the webhook", async () => {
    process.env.GW_TEST_START_TOKEN = "from-env";
    const action = webhook({ Authorization: { env: "GW_TEST_START_TOKEN", prefix: "Bearer " } });
    const outcome = await runAction(action, context, { dryRun: false });
    assert.equal(outcome.exitCode, 202);
    assert.equal(outcome.ok, true);
    assert.equal(hook.seen.at(-1)?.headers.authorization, "Bearer from-env");
  });

  test("an API key from a file (trimmed) reaches the webhook, in a header and in the body", async () => {
    const file = join(dir, "api-key");
    writeFileSync(file, "key-from-file\n");
    const action = webhook({ "X-Api-Key": { file } }, { api_key: { file }, zone: "eu-1" });
    await runAction(action, context, { dryRun: false });
    const last = hook.seen.at(-1)!;
    assert.equal(last.headers["x-api-key"], "key-from-file");
    const body = JSON.parse(last.body) as Record<string, unknown>;
    assert.deepEqual([body.api_key, body.zone, body.host], ["key-from-file", "eu-1", "gpu-a"]);
  });

  test("a secret that cannot be read fails the action without sending anything", async () => {
    const before = hook.seen.length;
    const action = webhook({ Authorization: { env: "GW_TEST_NOT_SET" } });
    const outcome = await runAction(action, context, { dryRun: false });
    assert.equal(outcome.ok, false);
    assert.equal(
      outcome.outputTail,
      "secret for Authorization: the environment variable GW_TEST_NOT_SET is not set",
    );
    assert.equal(hook.seen.length, before);
  });

  test("check-config names a secret it cannot read, and never prints one it can", async () => {
    process.env.GW_TEST_START_TOKEN = "s3cr3t-in-env";
    const file = join(dir, "refs.yaml");
    writeFileSync(
      file,
      [
        "sources: [{ kind: simulated, hosts: 1 }]",
        "hosts:",
        "  gpu-a:",
        "    stop: { webhook: 'https://cloud.example/stop', headers: { Authorization: { env: GW_TEST_START_TOKEN } } }",
        "    start: { webhook: 'https://cloud.example/start', headers: { X-Api-Key: { env: GW_TEST_NOT_SET } } }",
        "",
      ].join("\n"),
    );
    const { code, out } = await checkConfig(file);
    assert.equal(code, 0);
    assert.match(
      out,
      /warning: hosts\.gpu-a\.start\.headers\.X-Api-Key reads its secret from \$GW_TEST_NOT_SET/,
    );
    assert.doesNotMatch(out, /hosts\.gpu-a\.stop\.headers/);
    assert.doesNotMatch(out, /s3cr3t/);
  });

  test("check-config refuses a literal credential header and never prints it", async () => {
    const file = join(dir, "gpu-warden.yaml");
    writeFileSync(
      file,
      [
        "sources: [{ kind: simulated, hosts: 1 }]",
        "hosts:",
        "  gpu-a:",
        "    stop: { webhook: 'https://cloud.example/stop', headers: { Authorization: 'Bearer s3cr3t-literal' } }",
        "    start: { webhook: 'https://cloud.example/start', body: { api_key: 'k3y-literal' } }",
        "",
      ].join("\n"),
    );
    const { code, out } = await checkConfig(file);
    assert.equal(code, 2);
    assert.match(out, /hosts\.gpu-a\.stop\.headers\.Authorization/);
    assert.match(out, /hosts\.gpu-a\.start\.body\.api_key/);
    assert.match(out, /\{ env: NAME \} or \{ file: PATH \}/);
    assert.doesNotMatch(out, /s3cr3t|k3y-literal/);
  });
});
