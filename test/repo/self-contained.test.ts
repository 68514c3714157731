import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { findOutsideReferences, repositoryTextFiles } from "../helpers/outside-references.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** This test and its helper spell out the patterns they look for. */
const SELF = ["test/repo/self-contained.test.ts", "test/helpers/outside-references.ts"];

describe("the repository stands alone", () => {
  test("no code, test, script, benchmark or doc refers to a path outside the repository root", () => {
    const files = repositoryTextFiles(root, SELF);
    for (const expected of [
      "README.md",
      "package.json",
      "src/main.ts",
      "scripts/test.sh",
      "docs/benchmarks.md",
    ]) {
      assert.ok(files.includes(expected), `${expected} is scanned`);
    }
    const found = findOutsideReferences(root, SELF).map((hit) => `${hit.file}:${hit.line}: ${hit.why}`);
    assert.deepEqual(found, []);
  });
});

describe("findOutsideReferences", () => {
  const tree = mkdtempSync(join(tmpdir(), "gw-outside-"));
  after(() => rmSync(tree, { recursive: true, force: true }));

  test("finds parent paths that climb out, workspace paths, reference notes and dead Markdown links", () => {
    mkdirSync(join(tree, "src", "bot"), { recursive: true });
    mkdirSync(join(tree, "docs"));
    mkdirSync(join(tree, "node_modules", "x"), { recursive: true });
    writeFileSync(join(tree, "src", "bot", "ok.ts"), 'import { a } from "../../src/bot/ok.ts";\n');
    writeFileSync(join(tree, "src", "bot", "out.ts"), 'const f = new URL("../../../elsewhere/x.csv", u);\n');
    writeFileSync(join(tree, "README.md"), "See [the notes](../notes.md) and [docs](docs/a.md).\n");
    writeFileSync(join(tree, "docs", "a.md"), "Up: [readme](../README.md), gone: [b](b.md)\n");
    writeFileSync(join(tree, "docs", "b.txt"), `read /work/${"shared"}/x and ${"DESIGN"}.md\n`);
    writeFileSync(join(tree, "node_modules", "x", "i.js"), 'require("../../../../x")\n');
    const found = findOutsideReferences(tree).map((hit) => `${hit.file}:${hit.line}: ${hit.why}`);
    assert.deepEqual(found, [
      "README.md:1: ../notes.md leaves the repository",
      "README.md:1: link ../notes.md leaves the repository",
      "docs/a.md:1: link b.md points at nothing",
      "docs/b.txt:1: /work/ is outside the repository",
      "docs/b.txt:1: DESIGN.md is outside the repository",
      "src/bot/out.ts:1: ../../../elsewhere/x.csv leaves the repository",
    ]);
  });
});
