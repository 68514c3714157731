import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The `gpu-warden` command as installed: it runs the compiled JavaScript in `dist/`. */
export const BIN = join(REPO_ROOT, "bin", "gpu-warden.js");
const STAMP = join(REPO_ROOT, "dist", ".build-stamp");
const BUILD_INPUTS = ["src", "tsconfig.json", "tsconfig.build.json", join("scripts", "build.mjs")];

function newestMtimeMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

function builtAtMs(): number | null {
  try {
    return statSync(STAMP).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Runs `npm run build` when `dist/` is missing or older than a source, so tests that spawn the bin
 * run the code they were written against. `npm test` builds before any test starts.
 */
export function ensureBuilt(): string {
  const builtAt = builtAtMs();
  const newest = Math.max(...BUILD_INPUTS.map((input) => newestMtimeMs(join(REPO_ROOT, input))));
  if (builtAt === null || newest > builtAt) {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, "scripts", "build.mjs")], {
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
  }
  return BIN;
}

/** `gpu-warden ARGS` from the built `bin` in `dir` (its HOME too), on a bare environment in UTC plus `env`. */
export function runBuiltBin(bin: string, args: string[], dir: string, env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", TZ: "UTC", ...env },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
