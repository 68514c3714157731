import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { heldStream } from "../../src/shared/held-stream.ts";
import { createLogger, prettyLine } from "../../src/shared/logger.ts";
import { tsBundle } from "../helpers/ts-child.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-cli-console-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = await tsBundle(resolve("src/cli.ts"));

/**
 * `gpu-warden start` (the playground) on a pseudo-terminal (util-linux `script`), stdout and stderr
 * together as a person sees them; resolves once `lines` lines have come or the process ended.
 */
function onTerminal(
  env: Record<string, string>,
  lines: number,
): { child: ChildProcess; seen: Promise<string[]> } {
  const program = `import(${JSON.stringify(cli)}).then(async (m) => { process.exitCode = await m.runCli(["start"]); })`;
  const command = `${process.execPath} --enable-source-maps --input-type=module -e ${JSON.stringify(program)}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      TZ: "UTC",
      PORT: "0",
      LOG_LEVEL: "info",
      ...env,
    },
  });
  const seen = new Promise<string[]>((resolveLines) => {
    let out = "";
    const done = () => resolveLines(out.split(/\r?\n/).filter((line) => line.trim() !== ""));
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.split("\n").length > lines) done();
    });
    child.once("exit", done);
  });
  return { child, seen };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolveExit) => {
    if (child.exitCode !== null) return resolveExit();
    child.once("exit", () => resolveExit());
    child.kill("SIGTERM");
  });
}

describe("the console for people", { timeout: 120_000 }, () => {
  it("on a terminal the playground's URL is the first line and every log is one readable line", async () => {
    const { child, seen } = onTerminal({}, 3);
    const lines = await seen;
    await stop(child);
    assert.match(lines[0] ?? "", /^gpu-warden playground: http:\/\/127\.0\.0\.1:\d+\//, lines.join("\n"));
    assert.ok(lines.length > 1, lines.join("\n"));
    for (const line of lines.slice(1)) assert.match(line, /^\d\d:\d\d:\d\d (INFO |WARN |ERROR|DEBUG) /, line);
  });

  it("LOG_FORMAT=json keeps JSON logs on a terminal", async () => {
    const { child, seen } = onTerminal({ LOG_FORMAT: "json" }, 3);
    const lines = await seen;
    await stop(child);
    assert.ok(
      lines.some((line) => line.startsWith("{") && JSON.parse(line).app === "gpu-warden"),
      lines.join("\n"),
    );
  });

  it("a readable line: time, level, message, then the fields; errors by their message", () => {
    const line = prettyLine(
      JSON.stringify({
        level: 40,
        time: "2026-12-04T14:02:07.123Z",
        app: "gpu-warden",
        msg: "outbox: retrying",
        method: "chat.postMessage",
        err: { message: "boom\nstack" },
      }),
    );
    assert.equal(line, '14:02:07 WARN  outbox: retrying · method=chat.postMessage err="boom\\nstack"');
    const out = new PassThrough();
    createLogger("info", out, "pretty").info({ host: "gpu-a" }, "polled");
    assert.match(String(out.read()), /^\d\d:\d\d:\d\d INFO {2}polled · host=gpu-a\n$/);
  });

  it("held start-up logs come out after release, in order", () => {
    const out = new PassThrough();
    const held = heldStream(out);
    held.write("a\n");
    held.write("b\n");
    assert.equal(out.read(), null);
    held.release();
    held.write("c\n");
    assert.equal(String(out.read()), "a\nb\nc\n");
  });
});
