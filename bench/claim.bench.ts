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
import { registerListeners } from "../src/bot/listeners/index.ts";
import { createOutboxClient, createOutboxWorker } from "../src/bot/outbox-worker.ts";
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

// 100 concurrent `/gpu claim <host>:<gpu>` for the same GPU, each from a different person, over
// signed HTTP to the real app (Bolt HTTP receiver, dedupe middleware, listeners, use-cases over
// SQLite, the outbox to a Slack stand-in), the load from a separate process (bench/claim-load.ts).
// Every round targets a fresh GPU; exactly one request per round may win. `value` is the median
// over rounds of the round's p99 ack latency. Baseline, interleaved with ours: a bare Bolt app whose
// /gpu handler only acks with a line of text, under the same load.
const ROUNDS = 10;
const CONCURRENCY = 100;
const CHANNEL = "C0GPU";
const SECRET = "bench-signing-secret";
const T0 = Date.UTC(2026, 0, 6, 1, 0);

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gpu-warden-claim-bench-"));

interface LoadResult {
  id: number;
  latenciesMs: number[];
  statuses: Record<string, number>;
  texts: string[];
}

const load = spawn(process.execPath, ["--import", "tsx", join(here, "claim-load.ts")], {
  stdio: ["pipe", "pipe", "inherit"],
});
const lines = createInterface({ input: load.stdout })[Symbol.asyncIterator]();
const nextLine = async (): Promise<string> => {
  const line = await lines.next();
  if (line.done === true) throw new Error("the load process exited");
  return line.value;
};
const { sink } = JSON.parse(await nextLine()) as { sink: string };

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
  slack: { channel: CHANNEL },
  hosts: Object.fromEntries(source.hosts.map((host) => [host, { owners: ["U0ALICE"] }])),
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
for (let minute = 0; minute < 5; minute++) {
  clock.advance(MINUTE_MS);
  const observations = await source.poll(new AbortController().signal);
  metrics.writeCycle(observations, clock.now());
  alerts.onPoll({ atMs: clock.now(), observations });
}
outbox.start();

const app = createSlackApp({
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
  register: (bolt) => registerListeners(bolt, deps),
});
const url = `${(await app.start()).url}/slack/events`;

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
bare.command("/gpu", async ({ ack }) => {
  await ack({ response_type: "ephemeral", text: "ok" });
});
const bareServer = (await bare.start({ port: 0, host: "127.0.0.1" })) as Server;
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/slack/events`;

let jobId = 0;
async function send(target: string, commands: Array<{ user: string; text: string }>): Promise<LoadResult> {
  jobId += 1;
  load.stdin.write(
    `${JSON.stringify({ id: jobId, url: target, signingSecret: SECRET, channel: CHANNEL, commands })}\n`,
  );
  const result = JSON.parse(await nextLine()) as LoadResult;
  const bad = Object.entries(result.statuses).filter(([status]) => status !== "200");
  if (bad.length > 0) throw new Error(`non-200 answers: ${JSON.stringify(result.statuses)}`);
  return result;
}

async function bareRace(round: number): Promise<number[]> {
  const commands = Array.from({ length: CONCURRENCY }, (_, i) => ({
    user: `U0B${round}N${String(i).padStart(3, "0")}`,
    text: "claim gpu-a:0 for 4h bench",
  }));
  return (await send(bareUrl, commands)).latenciesMs;
}

async function claimRace(
  round: number,
): Promise<{ latenciesMs: number[]; winners: number; conflicts: number }> {
  const host = source.hosts[round % source.hosts.length]!;
  const target = `${host}:${Math.floor(round / source.hosts.length) % 8}`;
  const commands = Array.from({ length: CONCURRENCY }, (_, i) => ({
    user: `U0R${round}N${String(i).padStart(3, "0")}`,
    text: `claim ${target} for 4h bench`,
  }));
  const result = await send(url, commands);
  const winners = result.texts.filter((text) => text.startsWith(`You hold ${target} `)).length;
  const conflicts = result.texts.filter((text) => text.startsWith(`${target} is claimed by <@`)).length;
  const held = state.claims
    .activeOn(host, clock.now())
    .filter((claim) => `${host}:${claim.gpuIndex}` === target);
  if (held.length !== 1 || winners !== 1 || conflicts !== CONCURRENCY - 1) {
    throw new Error(
      `round ${round}: ${winners} winners, ${conflicts} conflict answers, ${held.length} claims stored on ${target}`,
    );
  }
  return { latenciesMs: result.latenciesMs, winners, conflicts };
}

await claimRace(ROUNDS);
await bareRace(ROUNDS);
const p99s: number[] = [];
const p50s: number[] = [];
const bareP99s: number[] = [];
const all: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  if (round % 2 === 1) bareP99s.push(percentile(await bareRace(round), 99));
  const { latenciesMs } = await claimRace(round);
  p99s.push(percentile(latenciesMs, 99));
  p50s.push(percentile(latenciesMs, 50));
  all.push(...latenciesMs);
  if (round % 2 === 0) bareP99s.push(percentile(await bareRace(round), 99));
}
await outbox.drain(60_000);

report({
  name: "claim",
  value: round(median(p99s)),
  unit: "ms",
  baseline: round(median(bareP99s)),
  ratio: round(median(p99s) / median(bareP99s)),
  winners: 1,
  conflicts: CONCURRENCY - 1,
  concurrency: CONCURRENCY,
  rounds: ROUNDS,
  p50: round(median(p50s)),
  p99_all: round(percentile(all, 99)),
  max: round(Math.max(...all)),
  transport: "http (signed, separate load process)",
});

load.stdin.end();
await new Promise((resolve) => load.once("exit", resolve));
await app.stop();
await bare.stop();
await outbox.stop();
db.close();
rmSync(dir, { recursive: true, force: true });
