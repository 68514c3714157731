// `npm run build`: compiles src/ to dist/ (tsconfig.build.json) and copies the files that are not
// TypeScript (pages, catalogs, fonts) beside the compiled modules. dist/ is rebuilt from nothing.
// `--no-check` emits the same files without type-checking them, for `npm test`, whose `tsc --noEmit`
// checks the whole repository beside it.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");
const dist = join(root, "dist");

rmSync(dist, { recursive: true, force: true });
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const noCheck = process.argv.includes("--no-check") ? ["--noCheck"] : [];
const compiled = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), ...noCheck], {
  stdio: "inherit",
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

function copyAssets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(path);
    else if (!entry.name.endsWith(".ts")) {
      const target = join(dist, relative(src, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}
copyAssets(src);
// Written last: its time tells test/helpers/built-bin.ts whether dist/ is older than the sources.
writeFileSync(join(dist, ".build-stamp"), `${new Date().toISOString()}\n`);
