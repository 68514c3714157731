import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { ensureBuilt } from "../helpers/built-bin.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";
import { gpu } from "../store/store-fixtures.ts";

const bin = ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "gw-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the real `gpu-warden` bin from another folder, as a user would. */
function gpuWarden(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", TZ: "UTC", ...env },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The same command run in this process (`runCli`), for what does not need the process boundary
 * (exit codes, streams and PATH lookups are checked through the real bin above).
 */
function inProcess(args: string[], env: Record<string, string> = {}) {
  return runCliHere(args, {
    cwd: dir,
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", ...env },
  });
}

/** The instant the report tests run at (`GPU_WARDEN_NOW`): the same days at any hour of the real clock. */
const NOW = "2026-03-05T12:00:00Z";

function config(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("gpu-warden CLI", () => {
  it("prints help and the version", async () => {
    const help = gpuWarden(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /gpu-warden collect --once \[--json\]/);
    const version = await inProcess(["--version"]);
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it("refuses an unknown command with the usage and exit code 2", () => {
    const result = gpuWarden(["colect"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command 'colect'/);
    assert.match(result.stderr, /usage:/);
  });

  it("check-config summarises a valid file", async () => {
    const file = config(
      "ok.yaml",
      "sources:\n  - kind: ssh\n    hosts: [gpu-a, gpu-b]\n  - kind: simulated\n    hosts: 4\nslack: { channel: '#ml' }\n",
    );
    const result = await inProcess(["check-config", "--config", file]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^configuration OK: .*ok\.yaml\n/);
    assert.match(result.stdout, /ssh to 2 host\(s\): gpu-a, gpu-b/);
    assert.match(result.stdout, /simulated fleet: 4 hosts × 8 GPUs/);
    assert.match(result.stdout, /channel: #ml/);
    assert.match(result.stdout, /a GPU is idle below 10 %; a host is idle after 30 min/);
  });

  it("check-config lists every problem and exits 2", async () => {
    const file = config(
      "bad.yaml",
      "poll:\n  intervall_seconds: 60\nsources:\n  - kind: prometheus\n    url: nope\n",
    );
    const result = await inProcess(["check-config", "--config", file]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /bad\.yaml: 2 problems/);
    assert.match(
      result.stderr,
      /at poll\n {4}expected: no other keys\n {4}found: {4}unknown key\(s\) 'intervall_seconds'\n {4}hint: {5}'intervall_seconds' → did you mean 'interval_seconds'\?/,
    );
    assert.match(result.stderr, /at sources\.0\.url/);
  });

  it("collect --once --json prints one observation per host with models, memory, utilisation and processes", async () => {
    const file = config("sim.yaml", "sources:\n  - kind: simulated\n    hosts: 12\n    seed: 7\n");
    const result = await inProcess(["collect", "--once", "--json", "--config", file]);
    assert.equal(result.code, 0, result.stderr);
    const observations = JSON.parse(result.stdout) as {
      host: string;
      ok: boolean;
      gpus?: { model: string; memTotalMiB: number; utilPct: number; processes: { name: string }[] }[];
    }[];
    assert.equal(observations.length, 12);
    assert.deepEqual(
      observations.map((o) => o.host),
      [
        "gpu-a",
        "gpu-b",
        "gpu-c",
        "gpu-d",
        "gpu-e",
        "gpu-f",
        "gpu-g",
        "gpu-h",
        "gpu-i",
        "gpu-j",
        "gpu-k",
        "gpu-l",
      ],
    );
    const answered = observations.filter((o) => o.ok);
    assert.ok(answered.length >= 11);
    for (const obs of answered) {
      assert.equal(obs.gpus?.length, 8);
      assert.match(obs.gpus?.[0]?.model ?? "", /H100|A100|L40S|RTX 4090/);
      assert.ok((obs.gpus?.[0]?.memTotalMiB ?? 0) > 20_000);
    }
    const processNames = answered.flatMap(
      (o) => o.gpus?.flatMap((g) => g.processes.map((p) => p.name)) ?? [],
    );
    assert.ok(
      processNames.some((name) => name.includes("python")),
      "some GPU process names are reported",
    );
  });

  it("collect --once prints a table for people, and uses the simulated fleet without nvidia-smi", async () => {
    const result = await inProcess(["collect", "--once"]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split("\n");
    assert.match(
      lines[0] ?? "",
      /^HOST\s+SOURCE\s+STATE\s+GPUS\s+UTIL %\s+MEMORY\s+POWER\s+SESSIONS\s+LOAD\s+NOTE$/,
    );
    assert.equal(lines.length, 13);
    assert.match(lines[1] ?? "", /^gpu-a\s+simulated\s+(ok|unknown)/);
  });

  it("collect --once uses the local nvidia-smi when it is on the PATH", () => {
    const binDir = mkdtempSync(join(dir, "bin-"));
    writeFileSync(
      join(binDir, "nvidia-smi"),
      `#!/bin/sh\ncase "$*" in *query-gpu*) echo "0, GPU-1111, NVIDIA H100 80GB HBM3, 97, 40000, 81559, 650.5, 61, Disabled";; esac\n`,
      { mode: 0o755 },
    );
    const result = gpuWarden(["collect", "--once", "--json"], { PATH: `${binDir}:/usr/bin:/bin` });
    assert.equal(result.code, 0, result.stderr);
    const [only, ...rest] = JSON.parse(result.stdout) as {
      source: string;
      ok: boolean;
      gpus: { utilPct: number; model: string }[];
    }[];
    assert.equal(rest.length, 0);
    assert.equal(only?.source, "local");
    assert.equal(only?.ok, true);
    assert.equal(only?.gpus[0]?.model, "NVIDIA H100 80GB HBM3");
    assert.equal(only?.gpus[0]?.utilPct, 97);
  });
});

describe("gpu-warden report", () => {
  const DAY_MS = 86_400_000;
  const today = Math.floor(Date.parse(NOW) / DAY_MS) * DAY_MS;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const [first, second] = [day(today - 2 * DAY_MS), day(today - DAY_MS)];
  const at = { GPU_WARDEN_NOW: NOW };
  const store = join(dir, "ledger.db");
  const file = config(
    "ledger.yaml",
    `store: { path: ${store} }\npoll: { interval_seconds: 600 }\n` +
      "costs: { electricity: { price_per_kwh: 0.5 } }\n" +
      "hosts: { gpu-a: { purchase_price: 8766, lifetime_months: 12 } }\n",
  );
  // Two UTC days of gpu-a polled every 10 minutes: GPU 0 busy, GPU 1 idle, 100 W each. It costs
  // 1.00/h written off + 0.30/h upkeep + 0.2 kWh × 0.50 = 1.40/h; half of it is idle.
  const db = openDatabase(store);
  const metrics = createMetricsStore(db, { sampleSpanMaxMs: 1_200_000 });
  for (let atMs = today - 2 * DAY_MS; atMs < today - 600_000; atMs += 600_000) {
    metrics.writeCycle(
      [
        {
          host: "gpu-a",
          source: "ssh",
          atMs,
          ok: true,
          gpus: [gpu(0, { utilPct: 80, powerW: 100 }), gpu(1, { utilPct: 0, powerW: 100 })],
          sessions: [],
          cpuLoad1: 0,
          cpuUtilPct: 0,
          containers: [],
        },
      ],
      atMs,
    );
  }
  db.close();

  it("prints the ledger of complete local days per host, with the total and the monthly usage rate", () => {
    const result = gpuWarden(["report", "--since", first, "--until", second, "--config", file], at);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split("\n");
    assert.deepEqual(lines.slice(0, 4), [
      `cost ledger ${first} … ${second} (UTC), EUR`,
      "host   days  hours on  busy GPU-h  idle GPU-h  unknown GPU-h  usage  energy kWh  cost EUR  idle cost EUR",
      "gpu-a     2      48.0        48.0        48.0            0.0   50 %         9.6     67.20          33.60",
      "total     2      48.0        48.0        48.0            0.0   50 %         9.6     67.20          33.60",
    ]);
    assert.equal(lines[5], "monthly real usage rate (busy GPU-hours / GPU-hours on):");
    assert.match(lines[6] ?? "", /^ {2}\d{4}-\d{2} {3}50 % {2}\(\d+\.0 of \d+\.0 GPU-hours on\)$/);
  });

  it("--csv prints one row per host and day; --until defaults to yesterday", async () => {
    const result = await inProcess(["report", "--since", first, "--csv", "--config", file], at);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      [
        "day,host,hours,on_hours,gpus,busy_gpu_hours,idle_gpu_hours,unknown_gpu_hours,usage_rate,energy_kwh,cost,idle_cost,capital,upkeep,energy_cost,rent,currency",
        `${first},gpu-a,24.000,24.000,2,24.000,24.000,0.000,0.5000,4.800,33.60,16.80,24.00,7.20,2.40,0.00,EUR`,
        `${second},gpu-a,24.000,24.000,2,24.000,24.000,0.000,0.5000,4.800,33.60,16.80,24.00,7.20,2.40,0.00,EUR`,
        "",
      ].join("\r\n"),
    );
  });

  it("refuses bad dates, a missing --since and a missing store with a clear message", async () => {
    const bad = await inProcess(["report", "--since", "2026-13-01", "--config", file], at);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, "--since 2026-13-01 is not a date: use YYYY-MM-DD, e.g. 2026-01-31\n");
    const reversed = await inProcess(["report", "--since", second, "--until", first, "--config", file], at);
    assert.equal(reversed.code, 2);
    assert.equal(reversed.stderr, `--until ${first} is before --since ${second}\n`);
    const missing = await inProcess(["report", "--config", file], at);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^report needs --since YYYY-MM-DD \(a local day in UTC\)\n/);
    const misplaced = await inProcess(["collect", "--once", "--csv"]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /--since, --until and --csv go with 'report', not 'collect'/);
    const nowhere = config("nowhere.yaml", `store: { path: ${join(dir, "none.db")} }\n`);
    const noStore = await inProcess(["report", "--since", first, "--config", nowhere], at);
    assert.equal(noStore.code, 1);
    assert.match(noStore.stderr, /^no store at .*none\.db: it is written by 'gpu-warden start'/);
  });

  it("GPU_WARDEN_NOW moves the report's clock, and must be an instant", async () => {
    const later = await inProcess(["report", "--since", first, "--csv", "--config", file], {
      GPU_WARDEN_NOW: "2026-03-04T12:00:00Z",
    });
    assert.equal(later.code, 0, later.stderr);
    assert.equal(later.stdout.trimEnd().split("\r\n").length, 2, "only the day before is complete then");
    const bad = await inProcess(["report", "--since", first, "--config", file], { GPU_WARDEN_NOW: "noon" });
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      "GPU_WARDEN_NOW=noon is not an instant: use ISO 8601 with a zone, e.g. 2026-03-05T12:00:00Z\n",
    );
  });
});

describe("gpu-warden collect --once when hosts cannot be read", () => {
  const binDir = mkdtempSync(join(dir, "broken-bin-"));
  writeFileSync(
    join(binDir, "nvidia-smi"),
    `#!/bin/sh\nprintf '\\033[2J\\033[31mNVIDIA-SMI has failed\\a\\302\\233H\\r\\n'\nexit 3\n`,
    { mode: 0o755 },
  );
  const env = { PATH: `${binDir}:/usr/bin:/bin` };

  it("exits 1 when no host could be read, so cron and CI see it", () => {
    const result = gpuWarden(["collect", "--once"], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^no host could be read \(1 tried\)/m);
    assert.match(result.stdout, /\sunknown\s/);
  });

  it("escapes control bytes in the table as the JSON form does", async () => {
    const local = config(
      "broken-local.yaml",
      `sources:\n  - kind: local\n    nvidia_smi: ${binDir}/nvidia-smi\n`,
    );
    const table = (await inProcess(["collect", "--once", "--config", local])).stdout;
    assert.doesNotMatch(
      table,
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/,
      "no raw control byte but newlines",
    );
    assert.equal(table.trimEnd().split("\n").length, 2, "one header and one host row");
    assert.match(table, /\\u001b\[2J\\u001b\[31mNVIDIA-SMI has failed\\u0007/);
    assert.match(table, /\\u009bH/);
    const json = await inProcess(["collect", "--once", "--json", "--config", local]);
    assert.equal(json.code, 1);
    assert.match(json.stdout, /\\u001b\[2J/);
  });
});
