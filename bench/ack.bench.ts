import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import bolt from "@slack/bolt";
import { createSlackApp } from "../src/bot/app.ts";
import type { BotDeps } from "../src/bot/bot-deps.ts";
import { keepValue } from "../src/bot/ids.ts";
import { answerCommand } from "../src/bot/listeners/commands/gpu-command.ts";
import { registerListeners } from "../src/bot/listeners/index.ts";
import { createOutboxClient, createOutboxWorker } from "../src/bot/outbox-worker.ts";
import { GPU_COMMAND } from "../src/bot/surface.ts";
import { wardenForMonth } from "../src/checks/warden-rotation.ts";
import { configSchema } from "../src/config/schema.ts";
import { ManualClock, MINUTE_MS } from "../src/shared/clock.ts";
import { createLogger } from "../src/shared/logger.ts";
import { createSimulatedSource } from "../src/sources/simulated-source.ts";
import { createBotStateStore } from "../src/store/bot-state-store.ts";
import { createCostStores } from "../src/store/cost-stores.ts";
import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { createReclaimStore } from "../src/store/reclaim-store.ts";
import { idlePolicyOf } from "../src/usecases/alert-policy.ts";
import { costWardenDepsOf } from "../src/usecases/cost-warden-deps.ts";
import { createIdleAlerts } from "../src/usecases/idle-alerts.ts";
import { median, percentile, report, round } from "./report.ts";

// Ack latency of `/gpu status` and of a Keep button click over signed HTTP, at concurrency 1 and
// 50, with the load coming from a separate process (bench/ack-load.ts). Baseline: a bare Bolt app
// whose handlers only ack(), same load, interleaved with ours; figures are medians over rounds.
const ROUNDS = 3;
const REQUESTS = { 1: 150, 50: 500 } as const;
const WARMUP_REQUESTS = 100;
const CHANNEL = "C0GPU";
const ADMIN = "U0ADMIN";
const SECRET = "bench-signing-secret";
/** Night in UTC: the simulated fleet is mostly idle, so alerts are open and Keep has work to do. */
const T0 = Date.UTC(2026, 0, 6, 1, 0);

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gpu-warden-ack-bench-"));

interface LoadResult {
  id: number;
  latenciesMs: number[];
  statuses: Record<string, number>;
}

const load = spawn(process.execPath, ["--import", "tsx", join(here, "ack-load.ts")], {
  stdio: ["pipe", "pipe", "inherit"],
});
const lines = createInterface({ input: load.stdout })[Symbol.asyncIterator]();
const nextLine = async (): Promise<string> => {
  const line = await lines.next();
  if (line.done === true) throw new Error("the load process exited");
  return line.value;
};
const { sink } = JSON.parse(await nextLine()) as { sink: string };
let jobId = 0;
async function runLoad(job: Record<string, unknown>): Promise<LoadResult> {
  jobId += 1;
  load.stdin.write(`${JSON.stringify({ id: jobId, ...job })}\n`);
  const result = JSON.parse(await nextLine()) as LoadResult;
  const bad = Object.entries(result.statuses).filter(([status]) => status !== "200");
  if (bad.length > 0) throw new Error(`non-200 answers: ${JSON.stringify(result.statuses)}`);
  return result;
}

// Ours: the real app (dedupe middleware, the bot's listeners and use-cases over SQLite, the outbox
// worker sending to the load process's Slack stand-in), logging at info as in production.
const clock = new ManualClock(T0);
const logger = createLogger(
  "info",
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  }),
);
const source = createSimulatedSource(
  { kind: "simulated", hosts: 12, gpus_per_host: 8, seed: 42 },
  { clock, timezone: "UTC" },
);
const config = configSchema.parse({
  slack: { channel: CHANNEL, admins: [ADMIN] },
  dry_run: true,
  hosts: Object.fromEntries(source.hosts.map((host) => [host, { owners: ["U0ALICE"], cost_per_hour: 2.5 }])),
});
const db = openDatabase(join(dir, "gpu-warden.db"));
const metrics = createMetricsStore(db);
const state = createBotStateStore(db);
const outbox = createOutboxWorker({
  store: state,
  client: createOutboxClient({ botToken: "xoxb-bench", slackApiUrl: `${sink}/api/`, logger }),
  clock,
  logger,
});
const warden = {
  current: (atMs: number) => wardenForMonth(config.warden.roster, atMs, config.team.timezone),
};
const alerts = createIdleAlerts({ config, metrics, state, notifier: outbox, warden, clock, logger });
const deps: BotDeps = {
  config,
  idlePolicy: idlePolicyOf(config),
  state,
  fleet: alerts,
  alerts,
  warden,
  clock,
  logger,
  notifier: outbox,
  metrics,
  reclaims: createReclaimStore(db),
  ...costWardenDepsOf({
    config,
    metrics,
    stores: createCostStores(db),
    audit: state.audit,
    clock,
    pendingReclaims: null,
  }),
};
for (let minute = 0; minute < 90; minute++) {
  const observations = await source.poll(new AbortController().signal);
  metrics.writeCycle(observations, clock.now());
  alerts.onPoll({ atMs: clock.now(), observations });
  clock.advance(MINUTE_MS);
}
outbox.start();
await outbox.drain(60_000);
const openAlert = state.alerts.allOpen().find((alert) => alert.kind === "idle");
const clickHost = openAlert?.host ?? source.hosts[0]!;
const clickValue = keepValue(clickHost, openAlert?.id, "1h");

// The synchronous work of one `/gpu status` answer (parse, read, render), without Slack around it.
const statusWorkMs = (() => {
  for (let i = 0; i < 20; i++) answerCommand(deps, "U0ALICE", "status");
  const runs = 200;
  const startedAt = performance.now();
  for (let i = 0; i < runs; i++) answerCommand(deps, "U0ALICE", "status");
  return round((performance.now() - startedAt) / runs, 3);
})();

const ours = createSlackApp({
  botToken: "xoxb-bench",
  signingSecret: SECRET,
  botId: "B0BOT",
  botUserId: "U0BOT",
  slackApiUrl: `${sink}/api/`,
  port: 0,
  host: "127.0.0.1",
  logger,
  clock,
  deliveries: state.deliveries,
  register: (app) => registerListeners(app, deps),
});
const oursUrl = `${(await ours.start()).url}/slack/events`;

// Baseline: a bare Bolt 5 app, same receiver kind, handlers that only ack().
const bare = new bolt.App({
  token: "xoxb-bench",
  signingSecret: SECRET,
  botId: "B0BOT",
  botUserId: "U0BOT",
  logger: {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: () => {},
    setLevel: () => {},
    getLevel: () => bolt.LogLevel.INFO,
    setName: () => {},
  },
  clientOptions: { slackApiUrl: `${sink}/api/`, retryConfig: { retries: 0 }, timeout: 10_000 },
});
bare.command(GPU_COMMAND, async ({ ack }) => {
  await ack();
});
bare.action(/.*/, async ({ ack }) => {
  await ack();
});
const bareServer = (await bare.start({ port: 0, host: "127.0.0.1" })) as Server;
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/slack/events`;

type Kind = "command" | "click";
type Concurrency = keyof typeof REQUESTS;
type Target = "ours" | "bare";
const cases: Array<{ kind: Kind; concurrency: Concurrency }> = [
  { kind: "command", concurrency: 1 },
  { kind: "click", concurrency: 1 },
  { kind: "command", concurrency: 50 },
  { kind: "click", concurrency: 50 },
];
const samples = new Map<string, { p50: number[]; p99: number[] }>();
const key = (target: Target, kind: Kind, concurrency: Concurrency) => `${target}/${kind}/c${concurrency}`;

async function measure(target: Target, kind: Kind, concurrency: Concurrency, record: boolean): Promise<void> {
  const result = await runLoad({
    url: target === "ours" ? oursUrl : bareUrl,
    signingSecret: SECRET,
    kind,
    concurrency,
    requests: record ? REQUESTS[concurrency] : WARMUP_REQUESTS,
    actionId: "keep_host_1h",
    value: clickValue,
    user: ADMIN,
    channel: CHANNEL,
  });
  if (!record) return;
  const entry = samples.get(key(target, kind, concurrency)) ?? { p50: [], p99: [] };
  entry.p50.push(percentile(result.latenciesMs, 50));
  entry.p99.push(percentile(result.latenciesMs, 99));
  samples.set(key(target, kind, concurrency), entry);
}

for (const { kind, concurrency } of cases) {
  await measure("ours", kind, concurrency, false);
  await measure("bare", kind, concurrency, false);
}
for (let round = 0; round < ROUNDS; round++) {
  const order: Target[] = round % 2 === 0 ? ["ours", "bare"] : ["bare", "ours"];
  for (const { kind, concurrency } of cases) {
    for (const target of order) await measure(target, kind, concurrency, true);
  }
}

const figures: Record<string, { p50: number; p99: number }> = {};
for (const [name, entry] of samples)
  figures[name] = { p50: round(median(entry.p50)), p99: round(median(entry.p99)) };
const f = (target: Target, kind: Kind, concurrency: Concurrency) => figures[key(target, kind, concurrency)]!;
const oursP99At50 = Math.max(f("ours", "command", 50).p99, f("ours", "click", 50).p99);
const bareP99At50 = Math.max(f("bare", "command", 50).p99, f("bare", "click", 50).p99);
const ratio = (kind: Kind, concurrency: Concurrency) =>
  round(f("ours", kind, concurrency).p99 / f("bare", kind, concurrency).p99);

report({
  name: "ack",
  value: oursP99At50,
  unit: "ms",
  baseline: bareP99At50,
  ratio: round(oursP99At50 / bareP99At50),
  statusWorkMs,
  ratios: {
    command_c1: ratio("command", 1),
    click_c1: ratio("click", 1),
    command_c50: ratio("command", 50),
    click_c50: ratio("click", 50),
  },
  cases: figures,
  rounds: ROUNDS,
  requests: REQUESTS,
  listeners:
    "registerListeners (real): /gpu status = fleet board of 12 hosts; click = Keep 1 h on an open alert",
});

load.stdin.end();
await new Promise((resolve) => load.once("exit", resolve));
await ours.stop();
await outbox.stop();
await bare.stop();
db.close();
rmSync(dir, { recursive: true, force: true });
