import { MINUTE_MS } from "../src/shared/clock.ts";
import { CHANNEL, createBenchBot, type LoadResult, SECRET, startBareBolt, startLoad } from "./bot-fixture.ts";
import { median, percentile, report, round } from "./report.ts";

// 100 concurrent `/gpu claim <host>:<gpu>` for the same GPU, each from a different person, over
// signed HTTP to the real app (Bolt HTTP receiver, dedupe middleware, listeners, use-cases over
// SQLite, the outbox to a Slack stand-in), the load from a separate process (bench/claim-load.ts).
// Every round targets a fresh GPU; exactly one request per round may win. `value` is the median
// over rounds of the round's p99 ack latency. Baseline, interleaved with ours: a bare Bolt app whose
// /gpu handler only acks with a line of text, under the same load.
const ROUNDS = 10;
const CONCURRENCY = 100;

const load = await startLoad("claim-load.ts");
const bot = createBenchBot({
  name: "claim",
  sink: load.sink,
  config: (hosts) => ({
    slack: { channel: CHANNEL },
    hosts: Object.fromEntries(hosts.map((host) => [host, { owners: ["U0ALICE"] }])),
  }),
});
const { clock, source, metrics, state, outbox, alerts } = bot;
for (let minute = 0; minute < 5; minute++) {
  clock.advance(MINUTE_MS);
  const observations = await source.poll(new AbortController().signal);
  metrics.writeCycle(observations, clock.now());
  alerts.onPoll({ atMs: clock.now(), observations });
}
outbox.start();

const url = await bot.start();

const bare = await startBareBolt(load.sink, (app) => {
  app.command("/gpu", async ({ ack }) => {
    await ack({ response_type: "ephemeral", text: "ok" });
  });
});

function send(
  target: string,
  commands: Array<{ user: string; text: string }>,
): Promise<LoadResult & { texts: string[] }> {
  return load.request({ url: target, signingSecret: SECRET, channel: CHANNEL, commands });
}

async function bareRace(round: number): Promise<number[]> {
  const commands = Array.from({ length: CONCURRENCY }, (_, i) => ({
    user: `U0B${round}N${String(i).padStart(3, "0")}`,
    text: "claim gpu-a:0 for 4h bench",
  }));
  return (await send(bare.url, commands)).latenciesMs;
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

await load.close();
await bot.close();
await bare.stop();
