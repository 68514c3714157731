// `npm run build`: type-checks src/ (tsconfig.build.json) and bundles it with esbuild into dist/: the
// entry points (cli.js, and main.js, which the CLI loads only to start the bot) and the chunks they
// share or load lazily, all at dist/'s top level; the packages stay imports. Source maps without the
// sources' text: `npm start`, the Dockerfile and the systemd unit run node with --enable-source-maps
// (0.1 s of CPU at a start, so the bin does not turn them on itself). The files that are not
// TypeScript (the playground's page, notes) keep their place under src/ in dist/. dist/ is rebuilt from
// nothing. `--no-check` skips the type check, for `npm test`, whose `tsc --noEmit` checks the whole
// repository beside it.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");
const dist = join(root, "dist");
const ENTRIES = ["cli.ts", "main.ts"];

/** `tsc --noEmit` on the sources; resolves its exit status. */
function typeCheck() {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const child = spawn(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--noEmit"], {
    stdio: "inherit",
  });
  return new Promise((done) => child.once("exit", (code) => done(code ?? 1)));
}

/**
 * Every output file lies at dist/'s top level, so a module's `import.meta.url` is rewritten to the
 * place its own compiled file would have had (src/playground/page-routes.ts: dist/playground/page-routes.js):
 * the URLs it builds from it (package.json, the page's files) point where they did.
 */
const ownImportMeta = {
  name: "own-import-meta",
  setup(context) {
    context.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.")) return undefined;
      if (/\bimport\.meta\.(dirname|filename)\b/.test(text))
        return { errors: [{ text: "use import.meta.url: the bundle rewrites only it" }] };
      const own = JSON.stringify(relative(src, args.path).replaceAll("\\", "/").replace(/\.ts$/, ".js"));
      const contents = text.replace(/\bimport\.meta\.url\b/g, `new URL(${own}, import.meta.url).href`);
      return { contents, loader: "ts" };
    });
  },
};

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

rmSync(dist, { recursive: true, force: true });
const checked = process.argv.includes("--no-check") ? Promise.resolve(0) : typeCheck();
const bundled = build({
  absWorkingDir: root,
  entryPoints: ENTRIES.map((entry) => join(src, entry)),
  outdir: dist,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  bundle: true,
  splitting: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  tsconfig: join(root, "tsconfig.build.json"),
  keepNames: true,
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
  plugins: [ownImportMeta],
}).then(
  () => 0,
  () => 1,
);
const [checkStatus, bundleStatus] = await Promise.all([checked, bundled]);
if (checkStatus !== 0 || bundleStatus !== 0) process.exit(checkStatus || bundleStatus);
copyAssets(src);
// Written last: its time tells test/helpers/built-bin.ts whether dist/ is older than the sources.
writeFileSync(join(dist, ".build-stamp"), `${new Date().toISOString()}\n`);
