import { KEEP_ACTION_IDS, keepValue } from "../src/bot/ids.ts";
import { answerCommand } from "../src/bot/listeners/commands/gpu-command.ts";
import { renderFleetBoard } from "../src/bot/listeners/commands/gpu-status.ts";
import { GPU_COMMAND } from "../src/bot/surface.ts";
import { MINUTE_MS } from "../src/shared/clock.ts";
import { CHANNEL, createBenchBot, type LoadResult, SECRET, startBareBolt, startLoad } from "./bot-fixture.ts";
import { median, percentile, report, round } from "./report.ts";

// Ack latency of `/gpu status` and of a Keep button click over signed HTTP, at concurrency 1 and
// 50, with the load coming from a separate process (bench/ack-load.ts). Baseline: a bare Bolt app
// whose handlers only ack(), same load, interleaved with ours; figures are medians over rounds.
const ROUNDS = 7;
const REQUESTS = { 1: 600, 50: 2000 } as const;
const WARMUP_REQUESTS = 100;
const ADMIN = "U0ADMIN";

const load = await startLoad("ack-load.ts");

// Ours: the real app (dedupe middleware, the bot's listeners and use-cases over SQLite, the outbox
// worker sending to the load process's Slack stand-in), logging at info as in production.
const bot = createBenchBot({
  name: "ack",
  sink: load.sink,
  config: (hosts) => ({
    slack: { channel: CHANNEL, admins: [ADMIN] },
    dry_run: true,
    hosts: Object.fromEntries(hosts.map((host) => [host, { owners: ["U0ALICE"], cost_per_hour: 2.5 }])),
  }),
});
const { clock, source, metrics, state, outbox, alerts, deps } = bot;
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
// NOTE: Keep 1 h and Keep 4 h in turn, so that every click changes the keep: each writes the
// snooze and the audit and notes it in the alert's thread (queued in the outbox and sent to the load
// process's Slack stand-in); a keep clicked on the alert needs no answer to the clicker.
const buttons = (["1h", "4h"] as const).map((keep) => ({
  actionId: KEEP_ACTION_IDS[keep],
  value: keepValue(clickHost, openAlert?.id, keep),
}));

// The synchronous work of one `/gpu status` answer: rendered afresh (read and render), and as
// answered (parse, then the board, reused within a minute until something changes).
const timed = (work: () => void): number => {
  for (let i = 0; i < 20; i++) work();
  const runs = 200;
  const startedAt = performance.now();
  for (let i = 0; i < runs; i++) work();
  return round((performance.now() - startedAt) / runs, 3);
};
const statusWorkMs = timed(() => renderFleetBoard(deps));
const statusAnswerMs = timed(() => answerCommand(deps, "U0ALICE", "status"));

const oursUrl = await bot.start();

// Baseline: a bare Bolt 5 app, same receiver kind, handlers that only ack().
const bare = await startBareBolt(load.sink, (app) => {
  app.command(GPU_COMMAND, async ({ ack }) => {
    await ack();
  });
  app.action(/.*/, async ({ ack }) => {
    await ack();
  });
});
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
  const result = await load.request<LoadResult>({
    url: target === "ours" ? oursUrl : bare.url,
    signingSecret: SECRET,
    kind,
    concurrency,
    requests: record ? REQUESTS[concurrency] : WARMUP_REQUESTS,
    buttons,
    user: ADMIN,
    channel: CHANNEL,
  });
  // NOTE: what the clicks queued (thread notes) is sent before the next measurement, so that no
  // measurement, ours or the baseline's, pays for an earlier one's Slack traffic.
  if (target === "ours") await outbox.drain(60_000);
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
  statusAnswerMs,
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
    "registerListeners (real): /gpu status = fleet board of 12 hosts (statusWorkMs to render it, statusAnswerMs as answered); click = Keep 1 h / Keep 4 h in turn on an idle host (each click changes the keep)",
});

await load.close();
await bot.close();
await bare.stop();
