/**
 * The crash campaign (`npm run crash [-- --points N] [--seed S]`): the team's day played against
 * the bot, killed with `kill -9` at N random points (default 100) chosen from seed S (default: a
 * new one, printed) and at the known windows, restarted each time, with the invariants checked
 * after every restart. Exits 1 on a violation; replay it with the same `--seed` and `--points`.
 */
import { parseArgs } from "node:util";
import { KNOWN_WINDOWS, runCrashCampaign } from "../test/crash/crash-campaign.ts";

const { values } = parseArgs({
  options: {
    points: { type: "string", default: "100" },
    seed: { type: "string" },
    quiet: { type: "boolean" },
  },
});
const points = Number(values.points);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isInteger(points) || points < 0 || !Number.isInteger(seed)) {
  process.stderr.write("usage: npm run crash -- [--points N] [--seed S]\n");
  process.exit(2);
}
process.stdout.write(
  `crash campaign: ${points} random kill points + ${KNOWN_WINDOWS.length} known windows, seed ${seed}\n`,
);
const result = await runCrashCampaign({
  points,
  seed,
  log: values.quiet ? undefined : (line) => process.stdout.write(`  ${line}\n`),
});
const seconds = Math.round(result.durationMs / 1000);
if (result.missed.length > 0) {
  process.stdout.write(`known windows never entered (killed there anyway): ${result.missed.join(", ")}\n`);
}
if (result.violations.length === 0) {
  process.stdout.write(
    `crash campaign: ${result.kills} kills, every invariant held (${seconds} s, seed ${seed})\n`,
  );
} else {
  for (const line of result.diagnosis) process.stdout.write(`${line}\n`);
  for (const violation of result.violations) process.stdout.write(`VIOLATION ${violation}\n`);
  process.stdout.write(
    `crash campaign FAILED: ${result.violations.length} violations in ${result.kills} kills (${seconds} s); replay: npm run crash -- --points ${points} --seed ${seed}\n`,
  );
  process.exitCode = 1;
}
