/**
 * `npm run test:changed [-- --base REF]`: runs the test files the working change touches, and those
 * that import (directly or through helpers) a changed file of src/ or test/. The change is what
 * `git status` shows (uncommitted and untracked files), plus the commits since REF when given.
 * Prints the files it picked and runs them one at a time as bundles (`scripts/bundle-modules.ts`);
 * runs nothing when none is affected.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleModules } from "./bundle-modules.ts";

const IMPORT =
  /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The relative `.ts` imports of `file`, as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)]
    .map((match) => resolve(dirname(file), match[1] ?? match[2] ?? ""))
    .filter((path) => path.endsWith(".ts") && existsSync(path));
}

/**
 * The test files of `root` affected by `changed` (paths relative to `root`): changed test files, and
 * test files whose import closure holds a changed file. Sorted, relative to `root`.
 */
export function affectedTests(root: string, changed: readonly string[]): string[] {
  const touched = new Set(changed.map((path) => resolve(root, path)));
  const memo = new Map<string, boolean>();
  const imports = new Map<string, string[]>();
  const importsCached = (file: string) => {
    let list = imports.get(file);
    if (list === undefined) {
      list = importsOf(file);
      imports.set(file, list);
    }
    return list;
  };
  const reaches = (file: string, seen: Set<string>): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    if (touched.has(file)) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    const found = importsCached(file).some((next) => reaches(next, seen));
    if (found) memo.set(file, true);
    return found;
  };
  return tsFiles(join(root, "test"))
    .filter((file) => file.endsWith(".test.ts") && reaches(file, new Set()))
    .map((file) => relative(root, file))
    .sort();
}

function git(root: string, args: string[]): string[] {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.trim()}`);
  return result.stdout.split("\n").filter(Boolean);
}

/** The files of the working change (and of the commits since `base`, when given). */
function changedFiles(root: string, base: string | null): string[] {
  const files = [
    ...git(root, ["diff", "--name-only", "HEAD"]),
    ...git(root, ["ls-files", "--others", "--exclude-standard"]),
    ...(base === null ? [] : git(root, ["diff", "--name-only", `${base}...HEAD`])),
  ];
  return [...new Set(files)].filter((file) => existsSync(join(root, file)));
}

async function main(): Promise<number> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const at = process.argv.indexOf("--base");
  const base = at === -1 ? null : (process.argv[at + 1] ?? null);
  const tests = affectedTests(root, changedFiles(root, base));
  if (tests.length === 0) {
    process.stdout.write("test:changed: no test file is affected by the change\n");
    return 0;
  }
  process.stdout.write(`test:changed: ${tests.length} file(s)\n${tests.map((t) => `  ${t}\n`).join("")}`);
  const folder = mkdtempSync(join(tmpdir(), "gpu-warden-test-changed-"));
  try {
    const modules = await bundleModules(tests, folder);
    const run = spawnSync(
      process.execPath,
      ["--enable-source-maps", "--test", "--test-concurrency=1", "--test-timeout=300000", ...modules],
      { cwd: root, stdio: "inherit", env: { ...process.env, TZ: "UTC" } },
    );
    return run.status ?? 1;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
