// `node scripts/bundle-tests.mjs OUT FILE...`: compiles the test files, with what they import from the
// repository, into ES modules under OUT (packages stay imports; code shared by several files goes
// into chunks), and prints the path of each file's module, in the order given. `npm test` runs these:
// under tsx every test process loads its hundreds of modules through loader hooks, seconds of CPU per
// file. Every module keeps its own `import.meta.url`, `dirname` and `filename`, so the paths it
// computes from them still point into the repository. OUT/node_modules links to the repository's.
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const [out, ...files] = process.argv.slice(2);
if (out === undefined || files.length === 0) {
  console.error("usage: node scripts/bundle-tests.mjs OUT FILE...");
  process.exit(2);
}

const ownImportMeta = {
  name: "own-import-meta",
  setup(context) {
    context.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.")) return undefined;
      const contents = text
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path));
      return { contents, loader: /\.[cm]?ts$/.test(args.path) ? "ts" : "js" };
    });
  },
};

const outdir = resolve(out);
const moduleOf = (file) => relative(root, resolve(file)).replace(/\.ts$/, "");
mkdirSync(outdir, { recursive: true });
try {
  symlinkSync(join(root, "node_modules"), join(outdir, "node_modules"), "dir");
} catch (error) {
  if (error.code !== "EEXIST") throw error;
}
await build({
  entryPoints: files.map((file) => ({ in: resolve(file), out: moduleOf(file) })),
  outdir,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  keepNames: true,
  sourcemap: "linked",
  logLevel: "warning",
  plugins: [ownImportMeta],
});
for (const file of files) console.log(join(outdir, `${moduleOf(file)}.mjs`));
