import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { z } from "zod";
import { portViolations, verdictOf } from "../../scripts/docs/architecture-doc.ts";
import { generatedDocs } from "../../scripts/docs/generated-docs.ts";
import { importEdges, importStatements } from "../../scripts/docs/import-graph.ts";
import { KNOWN_EXCEPTIONS, LAYER_RULES } from "../../scripts/docs/layers.ts";
import { configSchema } from "../../src/config/schema.ts";
import { REPO_ROOT } from "../helpers/built-bin.ts";

const read = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");
const srcFolders = readdirSync(join(REPO_ROOT, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("generated docs", () => {
  for (const path of ["docs/configuration.md", "docs/architecture.md", "docs/operations.md"]) {
    test(`${path} is up to date (else: npm run docs)`, async () => {
      const doc = (await generatedDocs(REPO_ROOT)).find((generated) => generated.path === path);
      assert.ok(doc, `${path} is generated`);
      assert.equal(read(path), doc.text, `${path} is stale: run \`npm run docs\` and commit it`);
    });
  }

  test("docs/configuration.md has a row for every key of the schema", () => {
    const doc = read("docs/configuration.md");
    const keys = new Set<string>();
    const collect = (schema: unknown): void => {
      if (Array.isArray(schema)) schema.forEach(collect);
      else if (schema && typeof schema === "object") {
        const properties = (schema as { properties?: Record<string, unknown> }).properties;
        for (const key of Object.keys(properties ?? {})) keys.add(key);
        Object.values(schema).forEach(collect);
      }
    };
    collect(z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any" }));
    assert.ok(keys.size > 80, `${keys.size} keys`);
    assert.deepEqual(
      [...keys].filter((key) => !doc.includes(`| \`${key}\` |`)),
      [],
    );
  });
});

describe("layers", () => {
  const statements = importStatements(join(REPO_ROOT, "src"));
  const edges = importEdges(join(REPO_ROOT, "src"), statements);

  test("every folder under src/ has a layer rule", () => {
    const ruled = new Set(LAYER_RULES.map((rule) => rule.part.split("/")[0]));
    assert.deepEqual(
      srcFolders.filter((folder) => !ruled.has(folder)),
      [],
      "add the folder to LAYER_RULES in scripts/docs/layers.ts (and to the README's Layout)",
    );
  });

  test("no import breaks the layer rules (scripts/docs/layers.ts)", () => {
    const forbidden = edges
      .filter((edge) => verdictOf(edge) === "forbidden")
      .map((edge) => `${edge.from} → ${edge.to} (${edge.imports}${edge.typeOnly ? ", types only" : ""})`);
    assert.deepEqual(forbidden, []);
  });

  test("use-cases name only ports (repositories, sources, clients) from store/ and sources/", () => {
    assert.deepEqual(portViolations(statements), []);
  });

  test("a rule that imports the store, a domain type that imports a source, a use-case that takes a row type: all caught", (t) => {
    const root = mkdtempSync(join(tmpdir(), "layers-"));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const files: Record<string, string> = {
      "checks/rule.ts":
        'import type { Claim } from "../domain/claim.ts";\nimport type { Row } from "../store/row-store.ts";\n',
      "domain/claim.ts": 'import type { GpuReading } from "../sources/reading.ts";\n',
      "usecases/act.ts":
        'import type { ClaimStore, Claim } from "../store/claim-store.ts";\nimport { later } from "../shared/time.ts";\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const verdicts = Object.fromEntries(
      importEdges(root).map((edge) => [`${edge.from}→${edge.to}`, verdictOf(edge)]),
    );
    assert.deepEqual(verdicts, {
      "checks→domain": "allowed",
      "checks→store": "forbidden",
      "domain→sources": "forbidden",
      "usecases→shared": "allowed",
      "usecases→store": "types-only",
    });
    assert.deepEqual(portViolations(importStatements(root)), ["usecases/act.ts → store: Claim"]);
  });

  test("an import after a comment, a dynamic import in backticks and a re-export: all read off the syntax tree", (t) => {
    const root = mkdtempSync(join(tmpdir(), "layers-"));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const files: Record<string, string> = {
      "checks/commented.ts": '/* x */ import { rows } from "../store/row-store.ts";\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text with a template literal
      "checks/dynamic.ts": "export const load = (name: string) => import(`../store/${name}.ts`);\n",
      "checks/loaded.ts": "export const store = () => import(`../store/x.ts`);\n",
      "checks/reexport.ts": 'export { rows } from "../store/row-store.ts";\n',
      "checks/types.ts":
        'export type { Row } from "../store/row-store.ts";\nexport type Rows = import("../store/row-store.ts").Rows;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    assert.deepEqual(
      importStatements(root).map((s) => `${s.file} → ${s.to}${s.typeOnly ? " (types)" : ""}`),
      [
        "checks/commented.ts → store",
        "checks/dynamic.ts → store",
        "checks/loaded.ts → store",
        "checks/reexport.ts → store",
        "checks/types.ts → store (types)",
        "checks/types.ts → store (types)",
      ],
    );
    assert.deepEqual(
      importEdges(root).map((edge) => verdictOf(edge)),
      ["forbidden"],
    );
  });

  test("every known exception still exists (remove the ones that are fixed)", () => {
    for (const known of KNOWN_EXCEPTIONS) {
      assert.ok(
        edges.some((edge) => edge.from === known.from && edge.to === known.to),
        `${known.from} → ${known.to} is gone`,
      );
    }
  });
});

describe("docs name what exists", () => {
  test("README's Layout names every folder under src/", () => {
    const readme = read("README.md");
    const layout = readme.slice(readme.indexOf("## Layout"));
    assert.deepEqual(
      srcFolders.filter((folder) => !layout.includes(`src/${folder}/`)),
      [],
    );
  });

  for (const doc of ["docs/architecture.md", "docs/operations.md", "CONTRIBUTING.md", "README.md"]) {
    test(`the source paths in ${doc} exist`, () => {
      const paths = [
        ...read(doc).matchAll(/`((?:src|test|bench|scripts|deploy|docs)\/[\w./-]+|[\w-]+\/[\w./-]+\.ts)`/g),
      ]
        .map((match) => match[1]!)
        .filter((path) => !path.includes("*") && !/\bNAME\b/.test(path));
      assert.ok(paths.length > 0);
      const missing = paths.filter(
        (path) => !existsSync(join(REPO_ROOT, path)) && !existsSync(join(REPO_ROOT, "src", path)),
      );
      assert.deepEqual(missing, []);
    });
  }
});
