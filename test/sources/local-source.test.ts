import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { sourceSchema } from "../../src/config/schema.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { slotLabel } from "../../src/shared/gpu-slot.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createLocalSource, type LocalSourceConfig } from "../../src/sources/local-source.ts";
import { GPU_QUERY_FIELDS } from "../../src/sources/parse-nvidia-smi.ts";
import { fixturePath } from "../helpers/fixtures.ts";
import {
  A100_MIG_QUERY_GPU,
  A100_MIG_XML,
  isDead,
  nvidiaSmiScript,
  psScript,
  readLog,
  writeScript,
} from "../helpers/stand-in-commands.ts";

const CAPTURES = "nvidia-smi/utkuozdemir-captures";
const H100_LOAD = "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load";
const MIG_LOAD = "linux-x86_64__nvidia-h100-mig__590.48.01__load";
const UUID = "GPU-00000000-0000-0000-0000-000000000000";
const AT_MS = Date.UTC(2026, 6, 14, 8, 13);

let dir: string;
let bin: string;
const originalPath = process.env.PATH ?? "";

function config(extra: Record<string, unknown> = {}): LocalSourceConfig {
  const parsed = sourceSchema.parse({ kind: "local", ...extra });
  assert.equal(parsed.kind, "local");
  return parsed as LocalSourceConfig;
}

async function pollOnce(cfg: LocalSourceConfig): Promise<HostObservation> {
  const source = createLocalSource(cfg, {
    clock: new ManualClock(AT_MS),
    logger: silentLogger,
    hostName: "gpu-box",
    loadAvg1: () => 0.42,
  });
  assert.deepEqual(source.hosts, [cfg.host ?? "gpu-box"]);
  const observations = await source.poll(new AbortController().signal);
  assert.equal(observations.length, 1);
  return observations[0]!;
}

function standIn(name: string, capture: string): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  return writeScript(
    folder,
    "nvidia-smi",
    nvidiaSmiScript({
      gpus: fixturePath(CAPTURES, `${capture}__query-gpu.csv`),
      apps: fixturePath(CAPTURES, `${capture}__query-compute-apps.csv`),
      log: join(folder, "args.log"),
    }),
  );
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), "gpu-warden-local-"));
  bin = join(dir, "bin");
  mkdirSync(bin);
  standIn("h100", H100_LOAD);
  writeScript(bin, "nvidia-smi", `exec ${join(dir, "h100", "nvidia-smi")} "$@"`);
  writeScript(
    bin,
    "who",
    `[ -f ${join(dir, "who-fails")} ] && { echo "who: cannot open utmp" >&2; exit 1; }\ncat ${fixturePath("who-w", "jc__centos-7.7__who-a.txt")}`,
  );
  writeScript(bin, "ps", psScript({ 11327: "alice", 11345: "bob" }));
  process.env.PATH = `${bin}${delimiter}${originalPath}`;
});

after(() => {
  process.env.PATH = originalPath;
  rmSync(dir, { recursive: true, force: true });
});

describe("local source with a stand-in nvidia-smi on the PATH", () => {
  test("a busy H100: readings, processes with owners, sessions and load as read", async () => {
    const observation = await pollOnce(config());
    assert.deepEqual(observation, {
      host: "gpu-box",
      source: "local",
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
            {
              pid: 11327,
              user: "alice",
              name: "/root/tools/memhog",
              usedMemoryMiB: 2566,
              container: null,
              pod: null,
              namespace: null,
            },
            {
              pid: 11328,
              user: null,
              name: "/root/tools/memhog",
              usedMemoryMiB: 1542,
              container: null,
              pod: null,
              namespace: null,
            },
            {
              pid: 11345,
              user: "bob",
              name: "./gpu_burn",
              usedMemoryMiB: 15690,
              container: null,
              pod: null,
              namespace: null,
            },
          ],
        },
      ],
      sessions: [
        { user: "kbrazil", line: "ttyS0", from: null, idleMinutes: 0 },
        { user: "kbrazil", line: "pts/0", from: "192.168.71.1", idleMinutes: 11 },
      ],
      cpuLoad1: 0.42,
      cpuUtilPct: null,
      containers: [],
    });
    assert.deepEqual(readLog(join(dir, "h100", "args.log")).sort(), [
      "--query-compute-apps=gpu_uuid,pid,process_name,used_memory --format=csv,noheader,nounits",
      `--query-gpu=${GPU_QUERY_FIELDS.join(",")} --format=csv,noheader,nounits`,
    ]);
  });

  test("the configured host name wins over the OS one", async () => {
    const observation = await pollOnce(config({ host: "trainer-7" }));
    assert.equal(observation.host, "trainer-7");
    assert.equal(observation.ok, true);
  });

  test("MIG enabled: utilisation is no reading, memory and processes still count", async () => {
    const observation = await pollOnce(config({ nvidia_smi: standIn("mig", MIG_LOAD) }));
    assert.equal(observation.ok, true);
    if (!observation.ok) return;
    const [gpu] = observation.gpus;
    assert.equal(gpu?.mig, true);
    assert.equal(gpu?.utilPct, null);
    assert.equal(gpu?.memUsedMiB, 11125);
    assert.deepEqual(
      gpu?.processes.map((p) => [p.pid, p.usedMemoryMiB]),
      [
        [21180, 2296],
        [21181, 1272],
        [21198, 7484],
      ],
    );
  });

  test("MIG instances listed by nvidia-smi -q -x: the GPU is its instances, one slot each, as from Prometheus", async () => {
    const folder = join(dir, "mig-a100");
    mkdirSync(folder);
    writeFileSync(join(folder, "query-gpu.csv"), A100_MIG_QUERY_GPU);
    const log = join(folder, "args.log");
    const nvidiaSmi = writeScript(
      folder,
      "nvidia-smi",
      nvidiaSmiScript({
        gpus: join(folder, "query-gpu.csv"),
        apps: fixturePath(CAPTURES, "linux-x86_64__nvidia-h100-mig__590.48.01__idle__query-compute-apps.csv"),
        xml: fixturePath(A100_MIG_XML),
        log,
      }),
    );
    const observation = await pollOnce(config({ nvidia_smi: nvidiaSmi }));
    assert.equal(observation.ok, true);
    if (!observation.ok) return;
    assert.deepEqual(
      observation.gpus.map((gpu) => [
        slotLabel(gpu.index),
        gpu.model,
        gpu.mig,
        gpu.utilPct,
        gpu.memUsedMiB,
        gpu.memTotalMiB,
      ]),
      ["0.3", "0.4", "0.5", "0.6"].map((slot) => [slot, "NVIDIA A100-SXM4-80GB MIG", true, null, 12, 19968]),
    );
    assert.ok(readLog(log).includes("-q -x"));
    assert.ok(
      !readLog(join(dir, "h100", "args.log")).includes("-q -x"),
      "asked only when a GPU is in MIG mode",
    );
  });

  test("who failing makes the host unknown: without sessions it cannot be judged idle", async () => {
    writeFileSync(join(dir, "who-fails"), "");
    try {
      const observation = await pollOnce(config());
      assert.equal(observation.ok, false);
      assert.equal(!observation.ok && observation.cause, "error");
      assert.match(
        !observation.ok ? observation.message : "",
        /who failed: who: cannot open utmp; login sessions unknown/,
      );
    } finally {
      rmSync(join(dir, "who-fails"));
    }
  });

  test("an old driver without mig.mode.current is asked again without it", async () => {
    const folder = join(dir, "old-driver");
    mkdirSync(folder);
    const script = writeScript(
      folder,
      "nvidia-smi",
      [
        'case "$*" in',
        `  *mig.mode.current*) echo 'Field "mig.mode.current" is not a valid field to query.'; echo; exit 2 ;;`,
        "  *--query-gpu=*) echo '0, GPU-old, Tesla K80, 35, 2000, 11441, 60.15, 41' ;;",
        "  *) ;;",
        "esac",
      ].join("\n"),
    );
    const observation = await pollOnce(config({ nvidia_smi: script }));
    assert.equal(observation.ok, true);
    assert.deepEqual(observation.ok && observation.gpus, [
      {
        index: 0,
        uuid: "GPU-old",
        model: "Tesla K80",
        utilPct: 35,
        memUsedMiB: 2000,
        memTotalMiB: 11441,
        powerW: 60.15,
        tempC: 41,
        mig: false,
        processes: [],
      },
    ]);
  });
});

describe("local source failures name the host and the cause", () => {
  const failure = (observation: HostObservation) =>
    observation.ok ? { ok: true } : { cause: observation.cause, message: observation.message };

  test("nvidia-smi not installed", async () => {
    const observation = await pollOnce(config({ nvidia_smi: join(dir, "missing", "nvidia-smi") }));
    assert.deepEqual(failure(observation), {
      cause: "command-not-found",
      message: `gpu-box: command-not-found: ${join(dir, "missing", "nvidia-smi")}: command not found`,
    });
  });

  test("a wrapper whose shell cannot find nvidia-smi", async () => {
    const script = writeScript(
      dir,
      "wrapped-nvidia-smi",
      `cat ${fixturePath("nvidia-smi", "error-command-not-found-in-pod-without-gpu__cncf-kops.txt")} >&2; exit 127`,
    );
    assert.deepEqual(failure(await pollOnce(config({ nvidia_smi: script }))), {
      cause: "command-not-found",
      message: "gpu-box: command-not-found: bash: line 1: nvidia-smi: command not found",
    });
  });

  test("the driver is down", async () => {
    const script = writeScript(
      dir,
      "driver-down",
      'echo "NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."\necho\nexit 9',
    );
    assert.deepEqual(failure(await pollOnce(config({ nvidia_smi: script }))), {
      cause: "driver-error",
      message:
        "gpu-box: driver-error: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
    });
  });

  test("no GPU found", async () => {
    const script = writeScript(dir, "no-devices", 'echo "No devices were found"; exit 6');
    assert.deepEqual(failure(await pollOnce(config({ nvidia_smi: script }))), {
      cause: "driver-error",
      message: "gpu-box: driver-error: No devices were found",
    });
  });

  test("garbage on stdout", async () => {
    const script = writeScript(dir, "garbage", 'printf \'\\x01\\x02 binary junk\\n{"not": "csv"}\\n\'');
    const observation = await pollOnce(config({ nvidia_smi: script }));
    assert.equal(observation.ok, false);
    assert.equal(!observation.ok && observation.cause, "parse-error");
    assert.match(
      !observation.ok ? observation.message : "",
      /^gpu-box: parse-error: nvidia-smi --query-gpu: expected 9 values on a line, got 1: /,
    );
  });

  test("an unknown non-zero exit is a driver error with the first line", async () => {
    const script = writeScript(dir, "exit-3", 'echo "Insufficient Permissions" >&2; exit 3');
    assert.deepEqual(failure(await pollOnce(config({ nvidia_smi: script }))), {
      cause: "driver-error",
      message: "gpu-box: driver-error: nvidia-smi --query-gpu exited with code 3: Insufficient Permissions",
    });
  });

  test("a hung nvidia-smi costs its timeout; the whole process group is killed", async () => {
    const pids = join(dir, "hang.pids");
    const script = writeScript(dir, "hang", `sleep 300 &\necho $! >> ${pids}\nwait`);
    assert.deepEqual(failure(await pollOnce(config({ nvidia_smi: script, timeout_seconds: 1 }))), {
      cause: "timeout",
      message: "gpu-box: timeout: nvidia-smi gave no answer within 1 s",
    });
    const sleepers = readFileSync(pids, "utf8").split("\n").filter(Boolean).map(Number);
    assert.equal(sleepers.length, 2);
    for (const pid of sleepers) assert.ok(isDead(pid), `sleep ${pid} still runs`);
  });
});
