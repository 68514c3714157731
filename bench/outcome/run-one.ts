import { POLICY_RUNS, runOutcome, SENSITIVITY_RUNS } from "./outcome-runs.ts";

// One run of the outcome benchmark in its own process (the parent runs two at a time): prints its
// result as one JSON line.
const key = process.argv[2];
const run = [...POLICY_RUNS, ...SENSITIVITY_RUNS].find((candidate) => candidate.key === key);
if (run === undefined) throw new Error(`unknown outcome run ${key}`);
const result = await runOutcome(run);
process.stdout.write(`${JSON.stringify(result)}\n`);
