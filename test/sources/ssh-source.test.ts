import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { sourceSchema } from "../../src/config/schema.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { slotLabel } from "../../src/shared/gpu-slot.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createSshSource, type SshSourceConfig } from "../../src/sources/ssh-source.ts";
import { fixturePath } from "../helpers/fixtures.ts";
import {
  createSshClientKeys,
  freePort,
  type SshClientKeys,
  type Sshd,
  startSilentListener,
  startSshd,
} from "../helpers/sshd.ts";
import {
  A100_MIG_QUERY_GPU,
  A100_MIG_XML,
  nvidiaSmiScript,
  psScript,
  writeScript,
} from "../helpers/stand-in-commands.ts";

const CAPTURES = "nvidia-smi/utkuozdemir-captures";
const UUID = "GPU-00000000-0000-0000-0000-000000000000";
const AT_MS = Date.UTC(2026, 6, 14, 8, 13);
const DRIVER_DOWN =
  "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.";

let dir: string;
let keys: SshClientKeys;
const servers: Sshd[] = [];
let busy: Sshd;
let mig: Sshd;
let migInstances: Sshd;
let failing: Sshd;
let bare: Sshd;
let passwordOnly: Sshd;
let silent: { port: number; stop(): Promise<void> };
let closedPort: number;

function remoteBin(name: string): string {
  const bin = join(dir, name);
  mkdirSync(bin);
  return bin;
}

function stubNvidiaSmi(bin: string, capture: string): void {
  writeScript(
    bin,
    "nvidia-smi",
    nvidiaSmiScript({
      gpus: fixturePath(CAPTURES, `${capture}__query-gpu.csv`),
      apps: fixturePath(CAPTURES, `${capture}__query-compute-apps.csv`),
      log: join(bin, "args.log"),
    }),
  );
}

async function sshd(bin: string | null, extra: { passwordOnly?: boolean } = {}): Promise<Sshd> {
  const server = await startSshd({
    keys,
    remotePath: `${bin === null ? "" : `${bin}:`}/usr/bin:/bin`,
    ...extra,
  });
  servers.push(server);
  return server;
}

function source(hosts: unknown[], extra: Record<string, unknown> = {}) {
  const config = sourceSchema.parse({ kind: "ssh", hosts, ssh_args: keys.clientArgs, ...extra });
  assert.equal(config.kind, "ssh");
  return createSshSource(config as SshSourceConfig, { clock: new ManualClock(AT_MS), logger: silentLogger });
}

function byHost(observations: HostObservation[]): Record<string, HostObservation> {
  return Object.fromEntries(observations.map((o) => [o.host, o]));
}

function failure(observation: HostObservation | undefined) {
  assert.ok(observation);
  return observation.ok ? { ok: true } : { cause: observation.cause, message: observation.message };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "gpu-warden-ssh-"));
  keys = createSshClientKeys();

  const busyBin = remoteBin("busy");
  stubNvidiaSmi(busyBin, "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load");
  writeScript(busyBin, "who", `cat ${fixturePath("who-w", "jc__ubuntu-18.04__who-a.txt")}`);
  writeScript(busyBin, "ps", psScript({ 11327: "alice", 11345: "bob" }));
  writeScript(
    busyBin,
    "cat",
    'if [ "$1" = /proc/loadavg ]; then echo "0.42 0.30 0.20 1/100 999"; else exec /bin/cat "$@"; fi',
  );

  const migBin = remoteBin("mig");
  stubNvidiaSmi(migBin, "linux-x86_64__nvidia-h100-mig__590.48.01__load");
  writeScript(migBin, "who", `cat ${fixturePath("who-w", "jc__osx-10.14.6__w.txt")}`);
  writeScript(migBin, "ps", psScript({ 21198: "carol" }));

  const a100Bin = remoteBin("mig-a100");
  writeFileSync(join(a100Bin, "query-gpu.csv"), A100_MIG_QUERY_GPU);
  writeScript(
    a100Bin,
    "nvidia-smi",
    nvidiaSmiScript({
      gpus: join(a100Bin, "query-gpu.csv"),
      apps: fixturePath(CAPTURES, "linux-x86_64__nvidia-h100-mig__590.48.01__idle__query-compute-apps.csv"),
      xml: fixturePath(A100_MIG_XML),
      log: join(a100Bin, "args.log"),
    }),
  );
  writeScript(a100Bin, "who", `cat ${fixturePath("who-w", "jc__osx-10.14.6__w.txt")}`);

  const failingBin = remoteBin("failing");
  writeScript(failingBin, "nvidia-smi", `echo "${DRIVER_DOWN}"\necho\nexit 9`);
  writeScript(failingBin, "garbage-smi", "echo '<html><body>502 Bad Gateway</body></html>'");

  [busy, mig, migInstances, failing, bare, passwordOnly] = await Promise.all([
    sshd(busyBin),
    sshd(migBin),
    sshd(a100Bin),
    sshd(failingBin),
    sshd(null),
    sshd(null, { passwordOnly: true }),
  ]);
  silent = await startSilentListener();
  closedPort = await freePort();
});

after(async () => {
  await Promise.all([...servers.map((server) => server.stop()), silent?.stop()]);
  keys?.remove();
  rmSync(dir, { recursive: true, force: true });
});

describe("ssh source against real sshd servers", () => {
  test("one poll reads every host: readings as printed remotely, or the cause per host", async () => {
    const ssh = source(
      [
        { name: "gpu-a", target: busy.target },
        { name: "gpu-mig", target: mig.target },
        { name: "gpu-driver", target: failing.target },
        { name: "gpu-bare", target: bare.target },
      ],
      { concurrency: 2, deadline_seconds: 60 },
    );
    assert.deepEqual(ssh.hosts, ["gpu-a", "gpu-mig", "gpu-driver", "gpu-bare"]);
    const observations = await ssh.poll(new AbortController().signal);
    assert.deepEqual(
      observations.map((o) => o.host),
      ["gpu-a", "gpu-mig", "gpu-driver", "gpu-bare"],
    );
    const hosts = byHost(observations);

    const proc = (pid: number, user: string | null, name: string, usedMemoryMiB: number) => ({
      pid,
      user,
      name,
      usedMemoryMiB,
      container: null,
      pod: null,
      namespace: null,
    });
    assert.deepEqual(hosts["gpu-a"], {
      host: "gpu-a",
      source: "ssh",
      atMs: AT_MS,
      ok: true,
      gpus: [
        {
          index: 0,
          uuid: UUID,
          model: "NVIDIA H100 80GB HBM3",
          utilPct: 100,
          memUsedMiB: 19818,
          memTotalMiB: 81559,
          powerW: 631.95,
          tempC: 59,
          mig: false,
          processes: [
            proc(11327, "alice", "/root/tools/memhog", 2566),
            proc(11328, null, "/root/tools/memhog", 1542),
            proc(11345, "bob", "./gpu_burn", 15690),
          ],
        },
      ],
      sessions: [
        { user: "kbrazil", line: "ttyS0", from: null, idleMinutes: 0 },
        { user: "kbrazil", line: "pts/0", from: "192.168.71.1", idleMinutes: 0 },
      ],
      cpuLoad1: 0.42,
      cpuUtilPct: null,
      containers: [],
    });

    const migHost = hosts["gpu-mig"];
    assert.ok(migHost?.ok);
    assert.deepEqual(
      migHost.gpus.map((g) => [g.utilPct, g.mig, g.memUsedMiB, g.powerW, g.tempC]),
      [[null, true, 11125, 433.78, 53]],
    );
    assert.deepEqual(migHost.gpus[0]?.processes, [
      proc(21180, null, "/root/tools/memhog", 2296),
      proc(21181, null, "/root/tools/memhog", 1272),
      proc(21198, "carol", "./gpu_burn", 7484),
    ]);
    assert.equal(migHost.sessions?.length, 8);
    assert.deepEqual(migHost.sessions?.[0], {
      user: "kelly",
      line: "console",
      from: null,
      idleMinutes: 28800,
    });
    assert.equal(typeof migHost.cpuLoad1, "number");

    assert.deepEqual(failure(hosts["gpu-driver"]), {
      cause: "driver-error",
      message: `gpu-driver: driver-error: ${DRIVER_DOWN}`,
    });
    const bareHost = failure(hosts["gpu-bare"]);
    assert.equal(bareHost.cause, "command-not-found");
    assert.match(bareHost.message ?? "", /^gpu-bare: command-not-found: .*nvidia-smi: (command )?not found$/);
  });

  test("a GPU in MIG mode whose instances nvidia-smi -q -x lists is its instances, one slot each", async () => {
    const [observation] = await source([{ name: "gpu-mig-a100", target: migInstances.target }]).poll(
      new AbortController().signal,
    );
    assert.ok(observation?.ok);
    assert.deepEqual(
      observation.gpus.map((gpu) => [
        slotLabel(gpu.index),
        gpu.model,
        gpu.utilPct,
        gpu.memUsedMiB,
        gpu.memTotalMiB,
      ]),
      ["0.3", "0.4", "0.5", "0.6"].map((slot) => [slot, "NVIDIA A100-SXM4-80GB MIG", null, 12, 19968]),
    );
  });

  test("garbage from the configured nvidia-smi is a parse error; a plain host name goes through ssh_args", async () => {
    const ssh = source(["gpu-garbage"], {
      nvidia_smi: "garbage-smi",
      ssh_args: [
        ...keys.clientArgs,
        "-o",
        "HostName=127.0.0.1",
        "-p",
        String(failing.port),
        "-l",
        userInfo().username,
      ],
    });
    const [observation] = await ssh.poll(new AbortController().signal);
    assert.deepEqual(failure(observation), {
      cause: "parse-error",
      message:
        'gpu-garbage: parse-error: nvidia-smi --query-gpu: expected 9 values on a line, got 1: "<html><body>502 Bad Gateway</body></html>"',
    });
  });

  test("a hung host costs its own deadline; refused and password-only hosts fail at once with their cause", async () => {
    const ssh = source(
      [
        { name: "gpu-hung", target: `ssh://${userInfo().username}@127.0.0.1:${silent.port}` },
        { name: "gpu-refused", target: `ssh://${userInfo().username}@127.0.0.1:${closedPort}` },
        { name: "gpu-password", target: passwordOnly.target },
        { name: "gpu-a", target: busy.target },
      ],
      { concurrency: 2, deadline_seconds: 6, connect_timeout_seconds: 60 },
    );
    const hosts = byHost(await ssh.poll(new AbortController().signal));
    assert.deepEqual(failure(hosts["gpu-hung"]), {
      cause: "timeout",
      message: "gpu-hung: timeout: no answer over ssh within 6 s",
    });
    assert.deepEqual(failure(hosts["gpu-refused"]), {
      cause: "unreachable",
      message: `gpu-refused: unreachable: ssh: connect to host 127.0.0.1 port ${closedPort}: Connection refused`,
    });
    assert.deepEqual(failure(hosts["gpu-password"]), {
      cause: "auth",
      message: `gpu-password: auth: ${userInfo().username}@127.0.0.1: Permission denied (password).`,
    });
    assert.equal(hosts["gpu-a"]?.ok, true);
  });

  test("ssh's own connect timeout on a silent host is a timeout too", async () => {
    const ssh = source([{ name: "gpu-hung", target: `ssh://127.0.0.1:${silent.port}` }], {
      deadline_seconds: 60,
      connect_timeout_seconds: 1,
    });
    const result = failure((await ssh.poll(new AbortController().signal))[0]);
    assert.equal(result.cause, "timeout");
    assert.match(result.message ?? "", /^gpu-hung: timeout: .*timed out/);
  });

  test("cancelling the poll ends the ssh calls in flight", async () => {
    const ssh = source([{ name: "gpu-hung", target: `ssh://127.0.0.1:${silent.port}` }], {
      deadline_seconds: 120,
      connect_timeout_seconds: 120,
    });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 300);
    const [observation] = await ssh.poll(controller.signal);
    clearTimeout(timer);
    assert.deepEqual(failure(observation), {
      cause: "timeout",
      message: "gpu-hung: timeout: poll cancelled before the host answered",
    });
  });
});
