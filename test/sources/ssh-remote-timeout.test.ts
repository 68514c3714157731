import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { sourceSchema } from "../../src/config/schema.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createSshSource, type SshSourceConfig } from "../../src/sources/ssh-source.ts";
import { createSshClientKeys, type SshClientKeys, type Sshd, startSshd } from "../helpers/sshd.ts";
import { isDead, writeScript } from "../helpers/stand-in-commands.ts";

let dir: string;
let keys: SshClientKeys;
let hung: Sshd;
const pidFile = () => join(dir, "bin", "nvidia-smi.pid");

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "gpu-warden-ssh-hang-"));
  keys = createSshClientKeys();
  const bin = join(dir, "bin");
  mkdirSync(bin);
  // A GPU host whose nvidia-smi hangs (a wedged driver): it records its pid and never answers.
  writeScript(bin, "nvidia-smi", `echo $$ > ${pidFile()}\nexec sleep 300`);
  hung = await startSshd({ keys, remotePath: `${bin}:/usr/bin:/bin` });
});

after(async () => {
  if (existsSync(pidFile())) {
    const pid = Number(readFileSync(pidFile(), "utf8"));
    if (!isDead(pid)) process.kill(pid, "SIGKILL");
  }
  await hung?.stop();
  keys?.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits (bounded) for something another process does; real processes, so the wall clock. */
async function eventually(check: () => boolean, what: string, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${withinMs} ms`);
    await sleep(100);
  }
}

describe("ssh source against a host whose nvidia-smi hangs", () => {
  it("fails the host at the deadline and leaves no nvidia-smi running on it", async () => {
    const config = sourceSchema.parse({
      kind: "ssh",
      hosts: [{ name: "gpu-hung", target: hung.target }],
      ssh_args: keys.clientArgs,
      deadline_seconds: 2,
    }) as SshSourceConfig;
    const source = createSshSource(config, { clock: new ManualClock(0), logger: silentLogger });
    const [observation] = await source.poll(new AbortController().signal);
    assert.equal(observation?.ok, false);
    assert.equal(observation?.ok === false && observation.cause, "timeout");
    await eventually(() => existsSync(pidFile()), "the remote nvidia-smi started");
    const pid = Number(readFileSync(pidFile(), "utf8"));
    await eventually(() => isDead(pid), "the remote nvidia-smi ended");
  });
});
