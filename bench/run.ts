import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Runs each benchmark (`bench/<name>.bench.ts`) in its own process: `npm run bench [-- NAME… --FLAG…]`.
const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((file) => file.endsWith(".bench.ts"))
  .map((file) => file.slice(0, -".bench.ts".length))
  .sort();
/** Options that take a value as the next argument (`--seed 7`); `--seed=7` works too. */
const VALUE_FLAGS = new Set(["--seed", "--seeds", "--events", "--policies", "--jobs"]);
const argv = process.argv.slice(2);
const isValue = (i: number) => i > 0 && VALUE_FLAGS.has(argv[i - 1]!);
const wanted = argv.filter((arg, i) => !arg.startsWith("--") && !isValue(i));
/** Options such as `--write-docs` go to every benchmark run. */
const flags = argv.filter((arg, i) => arg.startsWith("--") || isValue(i));
const unknown = wanted.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark(s): ${unknown.join(", ")}; known: ${all.join(", ")}\n`);
  process.exit(2);
}
let failures = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--expose-gc", join(here, `${name}.bench.ts`), ...flags],
    {
      stdio: "inherit",
      env: { ...process.env, TZ: "UTC" },
    },
  );
  if (result.status !== 0) {
    failures++;
    process.stderr.write(`benchmark ${name} exited with ${result.status ?? result.signal}\n`);
  }
}
process.exitCode = failures > 0 ? 1 : 0;
