/**
 * `node --import tsx scripts/bundle-modules.ts OUT FILE...`: compiles TypeScript files, with what they
 * import from the repository, into ES modules under OUT, and prints the path of each file's module in
 * the order given. `npm test`, `npm run test:changed` and the tests' TypeScript children run these
 * instead of going through tsx, whose loader hooks cost seconds of CPU per process (a bot test loads
 * some 600 modules through them).
 */
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IMPORT_META = /(?<!["'`])\bimport\.meta\.(url|dirname|filename)\b/g;

/** Every module keeps its own `import.meta.url`, `dirname` and `filename`: paths from them still point into the repository. */
const ownImportMeta: Plugin = {
  name: "own-import-meta",
  setup(context) {
    context.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const own = { url: pathToFileURL(args.path).href, dirname: dirname(args.path), filename: args.path };
      const contents = text.replace(IMPORT_META, (_, key: keyof typeof own) => JSON.stringify(own[key]));
      if (contents === text) return undefined;
      return { contents, loader: /\.[cm]?ts$/.test(args.path) ? "ts" : "js" };
    });
  },
};

/**
 * The packages that stay imports when the others are bundled: native addons, those that read their own
 * files or start workers from paths beside their code, and the tools.
 */
const KEEP_EXTERNAL = [
  "better-sqlite3",
  "@resvg/resvg-js",
  "pino",
  "thread-stream",
  "playwright-core",
  "typescript",
  "axe-core",
  "esbuild",
  "tsx",
];
/** Bundled CommonJS packages `require` Node's modules and the external packages through it. */
const REQUIRE_SHIM =
  'import { createRequire as __bundleCreateRequire } from "node:module"; const require = __bundleCreateRequire(import.meta.url);';

/** Several test files bundled as one module that imports them in order (`scripts/test-groups.ts`): `groups/NAME.mjs`. */
export interface ModuleGroup {
  name: string;
  files: readonly string[];
}

const GROUP = "gw-module-group";

/** Resolves `gw-module-group:NAME` to a module that imports the group's files. */
function moduleGroups(groups: readonly ModuleGroup[]): Plugin {
  const byName = new Map(groups.map((group) => [group.name, group]));
  return {
    name: "module-groups",
    setup(context) {
      context.onResolve({ filter: new RegExp(`^${GROUP}:`) }, (args) => ({
        path: args.path.slice(GROUP.length + 1),
        namespace: GROUP,
      }));
      context.onLoad({ filter: /.*/, namespace: GROUP }, (args) => ({
        contents: (byName.get(args.path)?.files ?? [])
          .map((file) => `import ${JSON.stringify(resolve(ROOT, file))};`)
          .join("\n"),
        resolveDir: ROOT,
        loader: "js",
      }));
    },
  };
}

export interface BundleOptions {
  /**
   * `bundled`: the packages too, but for {@link KEEP_EXTERNAL}: a child started many times loads one
   * file instead of some 550 CommonJS modules (0.35 s of CPU instead of 1 s for the bot's `startBot`).
   * Default `external`: the packages stay imports.
   */
  packages?: "external" | "bundled";
}

/**
 * Bundles `files` (paths in the repository) into `outdir`: packages stay imports (`outdir/node_modules`
 * links to the repository's), code that several files share goes into chunks, source maps point back
 * to the `.ts` lines (run with `--enable-source-maps`; without the sources' text, which the stack
 * traces do not need and which Node would parse in every process). Resolves the module of each file
 * (or group of files), in order.
 */
export async function bundleModules(
  files: readonly (string | ModuleGroup)[],
  outdir: string,
  options: BundleOptions = {},
): Promise<string[]> {
  const packages =
    options.packages === "bundled"
      ? { external: KEEP_EXTERNAL.flatMap((name) => [name, `${name}/*`]), banner: { js: REQUIRE_SHIM } }
      : { packages: "external" as const };
  const moduleOf = (file: string | ModuleGroup) =>
    typeof file === "string"
      ? relative(ROOT, resolve(ROOT, file)).replace(/\.[cm]?[jt]s$/, "")
      : `groups/${file.name}`;
  const entryOf = (file: string | ModuleGroup) =>
    typeof file === "string" ? resolve(ROOT, file) : `${GROUP}:${file.name}`;
  const groups = files.filter((file): file is ModuleGroup => typeof file !== "string");
  mkdirSync(outdir, { recursive: true });
  try {
    symlinkSync(join(ROOT, "node_modules"), join(outdir, "node_modules"), "dir");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  await build({
    entryPoints: files.map((file) => ({ in: entryOf(file), out: moduleOf(file) })),
    outdir,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    ...packages,
    platform: "node",
    format: "esm",
    target: "node20",
    keepNames: true,
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
    plugins: [ownImportMeta, moduleGroups(groups)],
  });
  return files.map((file) => join(outdir, `${moduleOf(file)}.mjs`));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [out, ...files] = process.argv.slice(2);
  if (out === undefined || files.length === 0) {
    process.stderr.write("usage: node --import tsx scripts/bundle-modules.ts OUT FILE...\n");
    process.exitCode = 2;
  } else {
    for (const module of await bundleModules(files, resolve(out))) process.stdout.write(`${module}\n`);
  }
}
