import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleModules } from "../../scripts/bundle-modules.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The folder of the child bundles `npm test` made once for all its processes
 * ({@link prebuildChildBundles}); a script that is not among them is bundled by the process that
 * asks for it.
 */
export const CHILD_BUNDLES_ENV = "GW_TEST_CHILD_BUNDLES";
const MANIFEST = "children.json";

let folder: string | null = null;
const made = new Map<string, Promise<string>>();
let prebuilt: Map<string, string> | null = null;

/**
 * The TypeScript (or JavaScript) scripts tests start as children: every `*-child.{ts,mjs}` under
 * test/ but for the helpers, the store's ingest loop and the CLI. Paths from the repository root.
 */
export function childScripts(root: string = ROOT): string[] {
  const found = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "helpers" ? [] : found(path);
      return /-child\.(?:ts|mjs)$/.test(entry.name) ? [path] : [];
    });
  return [...found("test").sort(), join("test", "store", "ingest-loop.ts"), join("src", "cli.ts")];
}

/**
 * Bundles every {@link childScripts} in one build into `outdir` (their packages in, shared code in
 * chunks) and writes the list the processes started with {@link CHILD_BUNDLES_ENV} set to `outdir`
 * read: one build for the whole suite instead of one per test process and script (about 2 s of the
 * bundler's CPU each).
 */
export async function prebuildChildBundles(outdir: string, root: string = ROOT): Promise<void> {
  const scripts = childScripts(root);
  const bundles = await bundleModules(scripts, outdir, { packages: "bundled" });
  const manifest = Object.fromEntries(scripts.map((script, at) => [resolve(root, script), bundles[at]]));
  writeFileSync(join(outdir, MANIFEST), JSON.stringify(manifest));
}

function prebuiltBundle(path: string): string | undefined {
  const dir = process.env[CHILD_BUNDLES_ENV];
  if (dir === undefined || dir === "") return undefined;
  if (prebuilt === null) {
    const file = join(dir, MANIFEST);
    const listed = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
    prebuilt = new Map(Object.entries(listed));
  }
  return prebuilt.get(path);
}

/**
 * The bundle of the TypeScript module `script` (`scripts/bundle-modules.ts`): the one `npm test` made
 * ({@link CHILD_BUNDLES_ENV}), or one made once per test process in a temporary folder removed at
 * exit: a child runs the same code as through tsx, without seconds of loader hooks, and with its
 * packages in the bundle (one file to load, not some 550 CommonJS modules: about 0.5 s of CPU less
 * per start of a bot).
 */
export async function tsBundle(script: string): Promise<string> {
  const path = resolve(script);
  const ready = prebuiltBundle(path);
  if (ready !== undefined) return ready;
  if (folder === null) {
    const dir = mkdtempSync(join(tmpdir(), "gpu-warden-child-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    folder = dir;
  }
  let module = made.get(path);
  if (module === undefined) {
    module = bundleModules([path], join(folder, String(made.size)), { packages: "bundled" }).then(
      ([bundle]) => bundle!,
    );
    made.set(path, module);
  }
  return module;
}

/** The `node` arguments that run the TypeScript script `script` as a child: its {@link tsBundle}. */
export async function tsChildArgs(script: string): Promise<string[]> {
  return ["--enable-source-maps", await tsBundle(script)];
}
