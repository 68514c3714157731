import { writeFileSync } from "node:fs";
import { POLICY_RUNS, runOutcome, SENSITIVITY_RUNS } from "./outcome-runs.ts";

// One run of the outcome benchmark in its own process: `run-one.ts KEY SEED [EVENTS_FILE]`. Prints
// its result as one JSON line; with EVENTS_FILE also writes its event log there (JSON lines, each
// event with its policy and seed).
const [key, seedArg, eventsPath] = process.argv.slice(2);
const run = [...POLICY_RUNS, ...SENSITIVITY_RUNS].find((candidate) => candidate.key === key);
if (run === undefined) throw new Error(`unknown outcome run ${key}`);
const seed = Number(seedArg);
const { result, events } = await runOutcome(run, seed);
if (eventsPath !== undefined) {
  const tag = { policy: key, seed };
  writeFileSync(eventsPath, events.map((event) => `${JSON.stringify({ ...tag, ...event })}\n`).join(""));
}
process.stdout.write(`${JSON.stringify(result)}\n`);
