import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { runCliHere } from "../helpers/run-cli-here.ts";

const bin = resolve("bin/gpu-warden.js");
const dir = mkdtempSync(join(tmpdir(), "gw-cli-playground-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const baseEnv = { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", TZ: "UTC", PORT: "0" };

/** Starts `gpu-warden start …` and resolves with its first stdout line. */
function start(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [bin, "start", ...args], { cwd: dir, env: { ...baseEnv, ...env } });
  const firstLine = new Promise<string>((resolveLine, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const newline = out.indexOf("\n");
      if (newline >= 0) resolveLine(out.slice(0, newline));
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before printing a line`)));
  });
  return { child, firstLine };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveExit) => {
    child.once("exit", (code) => resolveExit(code));
    child.kill("SIGTERM");
  });
}

describe("gpu-warden start: the playground", () => {
  it("without Slack tokens serves the playground, says so on the first line, and writes no store file", async () => {
    const { child, firstLine } = start([]);
    const line = await firstLine;
    const url = /^gpu-warden playground: (http:\/\/127\.0\.0\.1:\d+\/) /.exec(line)?.[1];
    assert.ok(url, line);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>gpu-warden playground<\/title>/);
    const health = await fetch(`${url}healthz`);
    assert.equal(health.status, 200);
    assert.equal(await stop(child), 0);
    assert.deepEqual(readdirSync(dir), [], "the playground's store is in memory");
  });

  it("--playground forces it even with Slack tokens set", async () => {
    const { child, firstLine } = start(["--playground"], {
      SLACK_BOT_TOKEN: "xoxb-not-used",
      SLACK_APP_TOKEN: "xapp-not-used",
    });
    assert.match(await firstLine, /^gpu-warden playground: http:\/\/127\.0\.0\.1:\d+\//);
    assert.equal(await stop(child), 0);
  });

  it("--no-playground keeps the console mode", async () => {
    const { child, firstLine } = start(["--no-playground"]);
    assert.match(await firstLine, /^gpu-warden: no Slack tokens, so alerts are printed here/);
    await stop(child);
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true });
  });

  it("refuses both flags at once, and either with another command", async () => {
    const both = await runCliHere(["start", "--playground", "--no-playground"], { cwd: dir, env: baseEnv });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--playground or --no-playground, not both/);
    const other = await runCliHere(["collect", "--once", "--playground"], { cwd: dir, env: baseEnv });
    assert.equal(other.code, 2);
    assert.match(other.stderr, /go with 'start'/);
  });
});
