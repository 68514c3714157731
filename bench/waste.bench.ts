import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_TEAM_PARAMS } from "../src/simulation/team-params.ts";
import { outcomePng } from "./outcome/outcome-chart.ts";
import { type OutcomeResult, POLICY_RUNS, SENSITIVITY_RUNS } from "./outcome/outcome-runs.ts";
import {
  type OutcomeSummary,
  outcomeBlock,
  removedPct,
  replaceBetween,
  sensitivityTable,
} from "./outcome/outcome-table.ts";
import { compareWaits, waitTable } from "./outcome/wait-comparison.ts";
import { report, round } from "./report.ts";

// The outcome benchmark: the simulated team's month under every policy (and the bot's policies with
// people answering slower, or never), each run in its own process, one at a time so that each run's
// seconds mean something (`--jobs=N` runs N at a time). With `--write-docs` it also writes
// docs/outcome.png and the tables in docs/outcome.md and README.md.
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const writeDocs = process.argv.includes("--write-docs");
const jobs = Math.max(1, Number(process.argv.find((arg) => arg.startsWith("--jobs="))?.slice(7) ?? 1) || 1);
const runs = [...POLICY_RUNS, ...SENSITIVITY_RUNS];
const startedAt = performance.now();

function runOne(key: string): Promise<OutcomeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(here, "outcome", "run-one.ts"), key], {
      stdio: ["ignore", "pipe", "inherit"],
      env: process.env,
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split("\n").at(-1)!) as OutcomeResult);
      else reject(new Error(`outcome run ${key} exited with ${code}`));
    });
  });
}

const results = new Map<string, OutcomeResult>();
const queue = [...runs];
const workers = Array.from({ length: Math.min(jobs, cpus().length) }, async () => {
  for (let run = queue.shift(); run !== undefined; run = queue.shift())
    results.set(run.key, await runOne(run.key));
});
await Promise.all(workers);

const summary: OutcomeSummary = {
  policies: Object.fromEntries(POLICY_RUNS.map((run) => [run.key, results.get(run.key)!.figures])),
  sensitivity: {},
  days: DEFAULT_TEAM_PARAMS.days,
  seed: DEFAULT_TEAM_PARAMS.seed,
  currency: DEFAULT_TEAM_PARAMS.currency,
};
for (const run of SENSITIVITY_RUNS) {
  const byVariant = summary.sensitivity[run.policy] ?? {};
  byVariant[run.answers] = results.get(run.key)!.figures;
  summary.sensitivity[run.policy] = byVariant;
}
const waits = await compareWaits();
const none = summary.policies.none!;
const warden = summary.policies["gpu-warden"]!;

if (writeDocs) {
  writeFileSync(join(root, "docs", "outcome.png"), outcomePng(summary));
  const block = outcomeBlock(summary, "outcome.png");
  const doc = join(root, "docs", "outcome.md");
  let text = replaceBetween(readFileSync(doc, "utf8"), "outcome", block);
  text = replaceBetween(text, "outcome-sensitivity", sensitivityTable(summary));
  text = replaceBetween(text, "outcome-wait", waitTable(waits, summary.days, summary.seed));
  writeFileSync(doc, text);
  const readme = join(root, "README.md");
  writeFileSync(
    readme,
    replaceBetween(readFileSync(readme, "utf8"), "outcome", outcomeBlock(summary, "docs/outcome.png")),
  );
}

const pick = (f: (typeof summary.policies)[string]) => ({
  idle_cost: f.idle_cost,
  total_cost: f.total_cost,
  false_stops: f.false_stops,
  work_lost_gpu_hours: f.work_lost_gpu_hours,
  stop_delay_p50_min: f.stop_delay_p50_min,
  stop_delay_p90_min: f.stop_delay_p90_min,
  interruptions_per_person_week: f.interruptions_per_person_week,
  idle_removed_pct: removedPct(f, none),
  stops: f.stops,
  start_waits: f.start_waits,
});
report({
  name: "waste",
  value: removedPct(warden, none),
  unit: "%",
  baseline: 80,
  ratio: round(removedPct(warden, none) / 80, 3),
  measures:
    "% of the idle cost of the `none` policy that the default gpu-warden policy removes, over a simulated month",
  false_stops: warden.false_stops,
  policies: Object.fromEntries(Object.entries(summary.policies).map(([name, f]) => [name, pick(f)])),
  sensitivity: Object.fromEntries(
    Object.entries(summary.sensitivity).map(([policy, variants]) => [
      policy,
      Object.fromEntries(Object.entries(variants).map(([variant, f]) => [variant, pick(f)])),
    ]),
  ),
  gpu_wait_min: Object.fromEntries(waits.map((row) => [row.team, { queue: row.queue, notify: row.notify }])),
  run_seconds: Object.fromEntries(runs.map((run) => [run.key, round(results.get(run.key)!.runSeconds, 1)])),
  days: summary.days,
  seed: summary.seed,
  poll_seconds: 60,
  jobs,
  wall_seconds: round((performance.now() - startedAt) / 1000, 1),
});
