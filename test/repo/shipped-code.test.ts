import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Exports that ship although only tests use them: leftovers to move into test/ or delete. The list
 * may only shrink.
 */
const KNOWN_TEST_ONLY = new Set([
  "commandSpec",
  "METHOD_SCOPES",
  "botScopes",
  "formatWhen",
  "actorText",
  "isRentedOrCloud",
  "nextWindow",
  "tariffSplit",
  "hourRowsOf",
  "formatLocal",
  "clockText",
  "POLICY_NAMES",
  "sampleKey",
  "targetOf",
  "defaultCalendar",
  "nextWorkingStartAt",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The bin's code and the benchmarks', as a bundler keeps them: everything nothing reaches is shaken out. */
async function reachableCode(): Promise<string> {
  const benches = readdirSync(join(ROOT, "bench"))
    .filter((name) => name.endsWith(".bench.ts") || name === "run.ts")
    .map((name) => join(ROOT, "bench", name));
  const result = await build({
    entryPoints: [join(ROOT, "src", "cli.ts"), ...benches],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    packages: "external",
    treeShaking: true,
    write: false,
    outdir: join(ROOT, "dist-shaken"),
    logLevel: "silent",
  });
  return result.outputFiles.map((file) => file.text).join("\n");
}

describe("src/ holds what ships", () => {
  test("every exported function, class and constant of src/ is used by the bin or a benchmark (test-only code lives in test/)", async () => {
    const code = await reachableCode();
    const testOnly: string[] = [];
    for (const file of sourceFiles(join(ROOT, "src"))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)/gm)) {
        const name = match[1]!;
        const kept = new RegExp(`(?:function\\*?|class|const|let|var)\\s+${name}\\d*\\b`).test(code);
        if (!kept && !KNOWN_TEST_ONLY.has(name)) testOnly.push(`${relative(ROOT, file)}: ${name}`);
      }
    }
    assert.deepEqual(testOnly, [], "only tests use these: move them to test/helpers/ (or delete them)");
  });
});
