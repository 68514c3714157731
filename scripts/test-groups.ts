/**
 * `node --import tsx scripts/test-groups.ts OUT COUNT [--alone=FILE]... [--children=DIR] FILE...`:
 * bundles the test files (`scripts/bundle-modules.ts`) as `npm test` runs them and prints the module
 * of each process in the order they start ({@link startOrder}): the `--alone` files, with the COUNT
 * groups of files that share a process (each as long as many files) between them, then the files
 * that must have a process of their own, named so that they sort in that order ({@link inStartOrder}). Each group's
 * files are listed on stderr. With `--children`, the scripts
 * tests start as children are bundled into DIR meanwhile (`test/helpers/ts-child.ts`).
 *
 * Which test files `npm test` runs together in one process. A process of its own costs a file some
 * 0.3–1 s of CPU before its first test (Node starting, the bundle compiled, the bot's stack and its
 * packages loaded); files that leave the process as they found it share one instead, one after the
 * other, their top-level tests in the order of the files.
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";
import { prebuildChildBundles } from "../test/helpers/ts-child.ts";
import { bundleModules, type ModuleGroup } from "./bundle-modules.ts";

/**
 * What the process of a test file must not share: per-test hooks at the top level (they would wrap
 * the other files' tests), changes to the environment, the working directory, the exit code or
 * process-wide listeners, global mocks, and a wall-clock instant read while the file is loaded (a
 * constant at the top or in a `describe`): in a shared process its tests run minutes later.
 */
const OWNS_PROCESS = [
  /^(?:beforeEach|afterEach)\(/m,
  /process\.env(?:\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/,
  /process\.(?:chdir|umask|exitCode|on|once|off|setMaxListeners|emitWarning)\b/,
  /globalThis\.\w+\s*=[^=]|^\s*mock\.(?:method|timers|fn|module|getter|setter)\b/m,
  /^ {0,4}(?:export )?(?:const|let|var) [^=]*=(?:(?!=>).)*(?:Date\.now\(\)|new Date\(\))/m,
];

/**
 * Whether the test file `source` (TypeScript) can share its process: nothing of {@link OWNS_PROCESS},
 * and no top-level `await` (a file that waits while being loaded lets the runner finish the tests
 * loaded before it and run their `after` hooks early).
 */
export function sharesProcess(source: string): boolean {
  if (OWNS_PROCESS.some((pattern) => pattern.test(source))) return false;
  try {
    transformSync(source, { format: "cjs", loader: "ts", logLevel: "silent" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Splits `files` (paths from `root`) into those that run alone, in the order given, and `count`
 * groups of those that share a process (dealt in turn, so that each group gets a share of every
 * folder). `alone` files stay alone whatever they hold.
 */
export function groupTestFiles(
  root: string,
  files: readonly string[],
  count: number,
  alone: ReadonlySet<string> = new Set(),
): { alone: string[]; groups: ModuleGroup[] } {
  const single: string[] = [];
  const shared: string[] = [];
  for (const file of files) {
    const joins = !alone.has(file) && sharesProcess(readFileSync(resolve(root, file), "utf8"));
    (joins ? shared : single).push(file);
  }
  const groups = Array.from({ length: Math.min(count, shared.length) }, (_, index) => ({
    name: `group-${index + 1}`,
    files: shared.filter((_, at) => at % count === index),
  }));
  return { alone: single, groups };
}

/**
 * The order the processes start in: the first `long` file, then each group after the next `long` file
 * (the long files, many of them waiting on a child process, Prometheus or the browser, overlap the
 * groups' work), then the `long` files left, then `rest`.
 */
export function startOrder(
  long: readonly string[],
  groups: readonly ModuleGroup[],
  rest: readonly string[],
): (string | ModuleGroup)[] {
  const [longest, ...others] = long;
  const order: (string | ModuleGroup)[] = longest === undefined ? [] : [longest];
  groups.forEach((group, index) => {
    const beside = others[index];
    if (beside !== undefined) order.push(beside);
    order.push(group);
  });
  return [...order, ...others.slice(groups.length), ...rest];
}

/**
 * The processes in `order` (a test file or a group), each as a module whose name starts with its
 * place (`03-group-2`, `07-crash-campaign.test`): `node --test` sorts the files it is given before
 * it starts them, so the names keep the order.
 */
export function inStartOrder(order: readonly (string | ModuleGroup)[]): ModuleGroup[] {
  const width = String(order.length).length;
  return order.map((unit, index) => {
    const place = String(index + 1).padStart(width, "0");
    if (typeof unit !== "string") return { name: `${place}-${unit.name}`, files: unit.files };
    return { name: `${place}-${basename(unit).replace(/\.[cm]?[jt]s$/, "")}`, files: [unit] };
  });
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [out, count, ...args] = process.argv.slice(2);
  const first = args.filter((arg) => arg.startsWith("--alone=")).map((arg) => arg.slice("--alone=".length));
  const children = args.find((arg) => arg.startsWith("--children="))?.slice("--children=".length);
  const files = args.filter((arg) => !arg.startsWith("--alone=") && !arg.startsWith("--children="));
  if (out === undefined || !(Number(count) >= 1) || files.length === 0) {
    process.stderr.write(
      "usage: node --import tsx scripts/test-groups.ts OUT COUNT [--alone=FILE]... [--children=DIR] FILE...\n",
    );
    process.exitCode = 2;
  } else {
    const { alone, groups } = groupTestFiles(ROOT, files, Number(count), new Set(first));
    const long = alone.filter((file) => first.includes(file));
    const order = startOrder(
      long,
      groups,
      alone.filter((file) => !first.includes(file)),
    );
    for (const group of groups) process.stderr.write(`# ${group.name}: ${group.files.join(" ")}\n`);
    const [modules] = await Promise.all([
      bundleModules(inStartOrder(order), resolve(out)),
      children === undefined ? null : prebuildChildBundles(resolve(children)),
    ]);
    for (const module of modules) process.stdout.write(`${module}\n`);
  }
}
