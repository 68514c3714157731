import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startSlackEmulator } from "../src/playground/slack-emulator/start-slack-emulator.ts";
import { DAY_MS, HOUR_MS, systemClock } from "../src/shared/clock.ts";
import { createSimulatedSource } from "../src/sources/simulated-source.ts";
import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { median, report, round } from "./report.ts";

// Steady-state resident memory of the running bot (`bin/gpu-warden.js start`, Socket Mode against
// the Slack emulator) polling the simulated fleet of 1,000 hosts × 8 GPUs, with 14 days of history
// in its store. The history is written first through writeCycle, one cycle an hour (each cycle
// stands for its hour: the generator's sample span is 2 h), and rolled up. RSS is read from
// /proc/<pid>/status (VmRSS) every 2 s once the bot has polled STEADY_AFTER_POLLS times, until
// MEASURED_POLLS more polls; `value` is the median of those samples. At the end, the split of RSS into
// anonymous memory (V8 heap, SQLite's page cache, malloc), file pages (node, ICU, libraries) and
// shared memory (SQLite's WAL index) is reported too. The bot runs with the V8 flags of `npm start`
// (package.json); RSS_NODE_OPTIONS replaces them, to measure another deployment.
const HOSTS = 1_000;
const GPUS_PER_HOST = 8;
const HISTORY_DAYS = 14;
const POLL_SECONDS = 15;
const STEADY_AFTER_POLLS = 4;
const MEASURED_POLLS = 4;
const TARGET_MB = 150;
const CHANNEL = "C0GPUFLEET";
const START_FLAGS = (
  JSON.parse(readFileSync(resolve("package.json"), "utf8")) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .filter((word) => word.startsWith("--"))
  .join(" ");
const NODE_OPTIONS = process.env.RSS_NODE_OPTIONS ?? START_FLAGS;

const dir = mkdtempSync(join(tmpdir(), "gpu-warden-rss-"));
const slack = await startSlackEmulator({ channels: [{ id: CHANNEL, name: "gpu" }] });
try {
  const source = { kind: "simulated" as const, hosts: HOSTS, gpus_per_host: GPUS_PER_HOST, seed: 42 };
  const storePath = join(dir, "gpu-warden.db");
  const nowMs = systemClock.now();
  const firstMs = Math.floor((nowMs - HISTORY_DAYS * DAY_MS) / HOUR_MS) * HOUR_MS;

  const generatedAt = performance.now();
  const db = openDatabase(storePath);
  const store = createMetricsStore(db, { sampleSpanMaxMs: 2 * HOUR_MS });
  const fleet = createSimulatedSource(source, { clock: systemClock, timezone: "UTC" }).fleet;
  let cycles = 0;
  for (let atMs = firstMs; atMs < nowMs - HOUR_MS; atMs += HOUR_MS) {
    store.writeCycle(fleet.observe(atMs), atMs);
    cycles++;
  }
  while (!store.rollup(nowMs, 10, 1_000).complete) {}
  db.close();
  const generateS = (performance.now() - generatedAt) / 1000;
  const dbMB = statSync(storePath).size / 1e6;

  const config = join(dir, "gpu-warden.yaml");
  writeFileSync(
    config,
    [
      `slack: { channel: ${CHANNEL} }`,
      "http: { port: 0 }",
      `store: { path: ${storePath} }`,
      `poll: { interval_seconds: ${POLL_SECONDS} }`,
      "sources:",
      `  - { kind: simulated, hosts: ${HOSTS}, gpus_per_host: ${GPUS_PER_HOST}, seed: 42 }`,
      "",
    ].join("\n"),
  );
  const bot = spawn(process.execPath, [resolve("bin/gpu-warden.js"), "start", "--config", config], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      TZ: "UTC",
      LOG_LEVEL: "info",
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_APP_TOKEN: slack.identity.appToken,
      SLACK_API_URL: slack.apiUrl,
      ...(NODE_OPTIONS === "" ? {} : { NODE_OPTIONS }),
    },
  });
  let polls = 0;
  let logTail = "";
  bot.stderr.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    polls += text.split("poll cycle done").length - 1;
    logTail = (logTail + text).slice(-4000);
  });
  const exited = new Promise<number | null>((done) => bot.on("exit", (code) => done(code)));

  const status = (field: "VmRSS" | "VmHWM" | "RssAnon" | "RssFile" | "RssShmem"): number => {
    const line = readFileSync(`/proc/${bot.pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${field}:`));
    return Number(/(\d+)/.exec(line ?? "")?.[1] ?? Number.NaN) / 1024;
  };
  const deadline = Date.now() + 10 * 60_000;
  const waitForPolls = async (n: number) => {
    while (polls < n) {
      if (bot.exitCode !== null) throw new Error(`the bot exited (${bot.exitCode}):\n${logTail}`);
      if (Date.now() > deadline) throw new Error(`only ${polls} polls in 10 min:\n${logTail}`);
      await sleep(500);
    }
  };
  await waitForPolls(STEADY_AFTER_POLLS);
  const samples: number[] = [];
  while (polls < STEADY_AFTER_POLLS + MEASURED_POLLS) {
    if (bot.exitCode !== null) throw new Error(`the bot exited (${bot.exitCode}):\n${logTail}`);
    if (Date.now() > deadline) throw new Error(`only ${polls} polls in 10 min:\n${logTail}`);
    samples.push(status("VmRSS"));
    await sleep(2_000);
  }
  const peakMB = status("VmHWM");
  const [anonMB, fileMB, shmemMB] = [status("RssAnon"), status("RssFile"), status("RssShmem")];
  bot.kill("SIGTERM");
  const code = await exited;
  const value = round(median(samples), 1);
  report({
    name: "rss",
    value,
    unit: "MB",
    baseline: null,
    ratio: null,
    target: TARGET_MB,
    ok: value <= TARGET_MB,
    hosts: HOSTS,
    gpus: HOSTS * GPUS_PER_HOST,
    historyDays: HISTORY_DAYS,
    historyCycles: cycles,
    pollSeconds: POLL_SECONDS,
    nodeOptions: NODE_OPTIONS,
    polls,
    samples: samples.length,
    maxMB: round(Math.max(...samples), 1),
    peakMB: round(peakMB, 1),
    anonMB: round(anonMB, 1),
    fileMB: round(fileMB, 1),
    shmemMB: round(shmemMB, 1),
    dbMB: round(dbMB, 1),
    generateS: round(generateS, 1),
    exitCode: code,
  });
} finally {
  await slack.close();
  rmSync(dir, { recursive: true, force: true });
}
