import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PolicyFigures } from "../src/simulation/policy-figures.ts";
import { DEFAULT_TEAM_PARAMS } from "../src/simulation/team-params.ts";
import { outcomePng } from "./outcome/outcome-chart.ts";
import {
  type OutcomeResult,
  type OutcomeRun,
  POLICY_RUNS,
  SENSITIVITY_RUNS,
} from "./outcome/outcome-runs.ts";
import {
  type OutcomeSummary,
  outcomeBlock,
  removedPct,
  replaceBetween,
  sensitivityTable,
} from "./outcome/outcome-table.ts";
import { headline, policyMedians, seedsTable } from "./outcome/seed-summary.ts";
import { compareWaits, waitTable } from "./outcome/wait-comparison.ts";
import { parseWasteArgs } from "./outcome/waste-args.ts";
import { report, round } from "./report.ts";

// The outcome benchmark: the simulated team's month under every policy, for one seed or several
// (`--seed N`, `--seeds COUNT`), each run in its own process, one at a time so that each run's
// seconds mean something (`--jobs N` runs N at a time). `--policies a,b` runs only those (and
// `none`); `--events FILE` writes every run's event log there (JSON lines). On the first seed it also
// runs the bot's policies with people answering slower, or never. `--write-docs` writes
// docs/outcome.png and the tables in docs/outcome.md and README.md.
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const args = parseWasteArgs(process.argv.slice(2), DEFAULT_TEAM_PARAMS.seed);
const DEFAULT_POLICY = "gpu-warden";
const startedAt = performance.now();
const firstSeed = args.seeds[0]!;
const policyRuns = POLICY_RUNS.filter((run) => (args.policies as string[]).includes(run.policy));
const sensitivityRuns = args.sensitivity ? SENSITIVITY_RUNS : [];
const runs: Array<{ run: OutcomeRun; seed: number }> = [
  ...args.seeds.flatMap((seed) => policyRuns.map((run) => ({ run, seed }))),
  ...sensitivityRuns.map((run) => ({ run, seed: firstSeed })),
];
const partOf = (key: string, seed: number) => `${args.eventsPath}.${seed}.${key}.part`;

function runOne(key: string, seed: number): Promise<OutcomeResult> {
  const extra = args.eventsPath === null ? [] : [partOf(key, seed)];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(here, "outcome", "run-one.ts"), key, String(seed), ...extra],
      { stdio: ["ignore", "pipe", "inherit"], env: process.env },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split("\n").at(-1)!) as OutcomeResult);
      else reject(new Error(`outcome run ${key} (seed ${seed}) exited with ${code}`));
    });
  });
}

const results = new Map<string, OutcomeResult>();
const resultKey = (key: string, seed: number) => `${seed}:${key}`;
const queue = [...runs];
const workers = Array.from({ length: Math.min(args.jobs, cpus().length) }, async () => {
  for (let next = queue.shift(); next !== undefined; next = queue.shift())
    results.set(resultKey(next.run.key, next.seed), await runOne(next.run.key, next.seed));
});
await Promise.all(workers);

if (args.eventsPath !== null) {
  const parts = runs.map(({ run, seed }) => partOf(run.key, seed));
  writeFileSync(args.eventsPath, parts.map((part) => readFileSync(part, "utf8")).join(""));
  for (const part of parts) rmSync(part);
}

const policyNames = policyRuns.map((run) => run.key);
const bySeed = new Map<number, Record<string, PolicyFigures>>(
  args.seeds.map((seed) => [
    seed,
    Object.fromEntries(policyNames.map((name) => [name, results.get(resultKey(name, seed))!.figures])),
  ]),
);
const summary: OutcomeSummary = {
  policies: bySeed.get(firstSeed)!,
  sensitivity: {},
  days: DEFAULT_TEAM_PARAMS.days,
  seed: firstSeed,
  currency: DEFAULT_TEAM_PARAMS.currency,
};
for (const run of sensitivityRuns) {
  const byVariant = summary.sensitivity[run.policy] ?? {};
  byVariant[run.answers] = results.get(resultKey(run.key, firstSeed))!.figures;
  summary.sensitivity[run.policy] = byVariant;
}
const waits = await compareWaits({ ...DEFAULT_TEAM_PARAMS, seed: firstSeed });

if (args.writeDocs) {
  writeFileSync(join(root, "docs", "outcome.png"), outcomePng(summary));
  const doc = join(root, "docs", "outcome.md");
  let text = replaceBetween(readFileSync(doc, "utf8"), "outcome", outcomeBlock(summary, "outcome.png"));
  text = replaceBetween(text, "outcome-seeds", seedsTable(bySeed, policyNames, summary.currency));
  if (args.sensitivity) text = replaceBetween(text, "outcome-sensitivity", sensitivityTable(summary));
  text = replaceBetween(text, "outcome-wait", waitTable(waits, summary.days, summary.seed));
  writeFileSync(doc, text);
  const readme = join(root, "README.md");
  writeFileSync(
    readme,
    replaceBetween(readFileSync(readme, "utf8"), "outcome", outcomeBlock(summary, "docs/outcome.png")),
  );
}

const none = summary.policies.none!;
const pick = (f: PolicyFigures) => ({ ...f, idle_removed_pct: removedPct(f, none) });
const main = policyNames.includes(DEFAULT_POLICY) ? DEFAULT_POLICY : policyNames.at(-1)!;
const top = headline(bySeed, main);
report({
  name: "waste",
  value: top.value,
  unit: "%",
  baseline: 80,
  ratio: round(top.value / 80, 3),
  measures: `median over the seeds of the % of the idle cost of the \`none\` policy that the \`${main}\` policy removes, over a simulated month`,
  worst: top.worst,
  best: top.best,
  seeds: args.seeds,
  false_stops_max: top.false_stops_max,
  victims_max: top.victims_max,
  policies: policyMedians(bySeed, policyNames),
  first_seed: Object.fromEntries(Object.entries(summary.policies).map(([name, f]) => [name, pick(f)])),
  sensitivity: Object.fromEntries(
    Object.entries(summary.sensitivity).map(([policy, variants]) => [
      policy,
      Object.fromEntries(Object.entries(variants).map(([variant, f]) => [variant, pick(f)])),
    ]),
  ),
  gpu_wait_min: Object.fromEntries(waits.map((row) => [row.team, { queue: row.queue, notify: row.notify }])),
  run_seconds: Object.fromEntries(
    runs.map(({ run, seed }) => [
      resultKey(run.key, seed),
      round(results.get(resultKey(run.key, seed))!.runSeconds, 1),
    ]),
  ),
  days: summary.days,
  poll_seconds: 60,
  jobs: args.jobs,
  events: args.eventsPath,
  wall_seconds: round((performance.now() - startedAt) / 1000, 1),
});
