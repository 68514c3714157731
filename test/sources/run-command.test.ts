import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runCommand } from "../../src/sources/run-command.ts";
import { isDead } from "../helpers/stand-in-commands.ts";

async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path) || readFileSync(path, "utf8").trim() === "") {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "gpu-warden-run-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe("runCommand", () => {
  test("runs an argv without a shell and reports exit code, stdout and stderr", async () => {
    const result = await runCommand(
      ["sh", "-c", 'echo "out $1"; echo err >&2; exit 3', "sh", "a; rm -rf /"],
      {
        timeoutMs: 10_000,
      },
    );
    assert.deepEqual(result, {
      exitCode: 3,
      signal: null,
      stdout: "out a; rm -rf /\n",
      stderr: "err\n",
      timedOut: false,
      aborted: false,
      spawnError: null,
      truncated: false,
    });
  });

  test("feeds input on stdin", async () => {
    const result = await runCommand(["sh", "-s"], { timeoutMs: 10_000, input: "echo from-stdin\n" });
    assert.equal(result.stdout, "from-stdin\n");
    assert.equal(result.exitCode, 0);
  });

  test("keeps at most maxOutputBytes of output", async () => {
    const result = await runCommand(["sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x"], {
      timeoutMs: 10_000,
      maxOutputBytes: 1000,
    });
    assert.equal(result.stdout, "x".repeat(1000));
    assert.equal(result.truncated, true);
    assert.equal(result.exitCode, 0);
  });

  test("a program that is not there is a spawn error, not an exception", async () => {
    const result = await runCommand([join(dir, "no-such-program")], { timeoutMs: 10_000 });
    assert.equal(result.exitCode, null);
    assert.match(result.spawnError ?? "", /^ENOENT: /);
  });

  test("on timeout the whole process group is killed", async () => {
    const pidFile = join(dir, "timeout.pid");
    const result = await runCommand(["sh", "-c", `sleep 300 & echo $! > ${pidFile}; echo started; wait`], {
      timeoutMs: 2000,
    });
    assert.equal(result.timedOut, true);
    assert.equal(result.signal, "SIGKILL");
    assert.equal(result.stdout, "started\n");
    assert.ok(isDead(Number(readFileSync(pidFile, "utf8"))));
  });

  test("aborting kills the process group; an aborted signal starts nothing", async () => {
    const pidFile = join(dir, "abort.pid");
    const controller = new AbortController();
    const running = runCommand(["sh", "-c", `sleep 300 & echo $! > ${pidFile}; wait`], {
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    await waitForFile(pidFile);
    controller.abort();
    const result = await running;
    assert.equal(result.aborted, true);
    assert.equal(result.timedOut, false);
    assert.ok(isDead(Number(readFileSync(pidFile, "utf8"))));

    const never = await runCommand(["sh", "-c", `touch ${join(dir, "ran")}`], {
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    assert.equal(never.aborted, true);
    assert.throws(() => readFileSync(join(dir, "ran")), { code: "ENOENT" });
  });
});
