import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type Node, type SourceFile, SyntaxKind } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

/**
 * Every word a person reads comes from the catalog (`src/messages/`): this walks the surfaces (views,
 * listeners, the command parser, use-cases, the CLI, check-config, the reports) with the TypeScript
 * compiler's API (TypeScript 7: `typescript/unstable/sync`, the syntax trees the compiler itself
 * parses) and reports every string or template literal that reads as prose, outside the allowed
 * places: imports, logger calls and built-in errors (operators' text, not catalog text), object keys
 * and type-level literals, catalog ids passed to `t(…)`, and lines marked `// words-ok: why`.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCANNED = [
  "src/bot/views",
  "src/bot/listeners",
  "src/bot/commands/parse-command.ts",
  "src/usecases",
  "src/reports",
];

/** A word of letters: `host`, `Right`, `claim's`, with trailing punctuation. */
const WORD = /^[(“"']?[A-Za-z][a-z]*(?:['’][a-z]+)?[a-z][,.;:!?)”"']*$|^(?:a|A|I)$/;
/** One capitalised word followed by punctuation: `Done.`, `Stop:`. */
const SHOUT = /^[A-Z][a-z]+[.:!?…]$/;

/** A PromQL query (`max by (host) (max_over_time(…))`), not prose. */
const QUERY = /\b(?:sum|max|min|avg|count) by \(|\b[a-z]+_[a-z_]+\(/;

/** Whether `text` (a literal, `${…}` already cut out) reads as prose rather than code. */
export function readsAsProse(text: string): boolean {
  const plain = text
    .replace(/`[^`]*`/g, " ")
    .replace(/<[^<>]*>/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\{[^{}]*\}/g, " ")
    .trim();
  if (plain === "" || QUERY.test(plain)) return false;
  const tokens = plain.split(/\s+/);
  if (tokens.length === 1) return SHOUT.test(tokens[0] ?? "");
  let run = 0;
  for (const token of tokens) {
    run = WORD.test(token) ? run + 1 : 0;
    if (run >= 2) return true;
  }
  return false;
}

const LOGGER_CALL = /(^|\.)(logger|log)\.(trace|debug|info|warn|error|fatal|child)$/;
const BUILT_IN_ERRORS = new Set(["Error", "TypeError", "RangeError", "AssertionError"]);
const LITERALS = new Set([
  SyntaxKind.StringLiteral,
  SyntaxKind.NoSubstitutionTemplateLiteral,
  SyntaxKind.TemplateExpression,
]);
const MODULE_PLACES = new Set([
  SyntaxKind.ImportDeclaration,
  SyntaxKind.ExportDeclaration,
  SyntaxKind.ImportType,
]);

// NOTE: the unstable API's nodes are typed as the base `Node`; the fields read here are those of
// the kinds checked just before.
type AnyNode = Node &
  Record<string, never> & {
    text: string;
    expression: AnyNode;
    arguments: readonly AnyNode[];
    name: AnyNode;
    head: AnyNode;
    literal: AnyNode;
    templateSpans: readonly AnyNode[];
    parent: AnyNode | undefined;
  };

/** Whether `node` sits where words are not for people (or not the catalog's to hold). */
function allowed(node: AnyNode, file: SourceFile): boolean {
  const code = (at: AnyNode) => at.getText(file);
  for (let at = node.parent; at !== undefined; at = at.parent) {
    if (MODULE_PLACES.has(at.kind) || at.kind === SyntaxKind.LiteralType) return true;
    if (at.kind === SyntaxKind.CallExpression) {
      if (LOGGER_CALL.test(code(at.expression))) return true;
      if (/(^|\.)t$/.test(code(at.expression)) && at.arguments[0] === node) return true;
    }
    if (at.kind === SyntaxKind.NewExpression && BUILT_IN_ERRORS.has(code(at.expression))) return true;
  }
  const parent = node.parent;
  const keyed =
    parent?.kind === SyntaxKind.PropertyAssignment || parent?.kind === SyntaxKind.PropertySignature;
  return keyed && parent?.name === node;
}

/** The literal's text with each `${…}` cut out. */
function literalText(node: AnyNode): string {
  if (node.kind !== SyntaxKind.TemplateExpression) return node.text;
  return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" {} ");
}

interface Finding {
  file: string;
  line: number;
  text: string;
}

/** The prose literals of one parsed file (`path` relative to the repository). */
function proseIn(path: string, file: SourceFile): Finding[] {
  const source = file.text;
  const lines = source.split("\n");
  const found: Finding[] = [];
  const visit = (node: AnyNode): void => {
    if (LITERALS.has(node.kind)) {
      const text = literalText(node);
      const line = source.slice(0, node.getStart(file)).split("\n").length - 1;
      const marked =
        /\/\/ words-ok: \S/.test(lines[line] ?? "") || /^\s*\/\/ words-ok: \S/.test(lines[line - 1] ?? "");
      if (!marked && readsAsProse(text) && !allowed(node, file)) {
        found.push({ file: path, line: line + 1, text: text.length > 90 ? `${text.slice(0, 90)}…` : text });
      }
      if (node.kind !== SyntaxKind.TemplateExpression) return;
    }
    node.forEachChild((child) => {
      visit(child as AnyNode);
    });
  };
  visit(file as unknown as AnyNode);
  return found;
}

/** The files in `paths` parsed by the compiler, under the project `tsconfig` (one server for all). */
function parseAll(root: string, paths: readonly string[]): { files: Map<string, SourceFile>; close(): void } {
  const api = new API({ cwd: root });
  const project = api.updateSnapshot({ openProject: join(root, "tsconfig.json") }).getProjects()[0];
  assert.ok(project !== undefined, `a TypeScript project at ${root}`);
  const files = new Map<string, SourceFile>();
  for (const path of paths) {
    const file = project.program.getSourceFile(join(root, path));
    assert.ok(file !== undefined, `${path} is part of the project`);
    files.set(path, file);
  }
  return { files, close: () => api.close() };
}

function sourceFiles(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .flatMap((name) => sourceFiles(relative(ROOT, join(full, name))))
    .filter((name) => name.endsWith(".ts"));
}

const SAMPLE = [
  'import { x } from "./some module.ts";',
  'logger.warn({ host }, "poll cycle took too long");',
  'throw new Error("the store is not open yet");',
  'const keys = { "Block Kit key": 1 };',
  'type Kind = "going idle" | "never stopped";',
  'tr.t("help.noClaims");',
  'const shown = "kept for a while"; // words-ok: a sample',
  'const said = "This is a sentence.";',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text with a template literal
  "const built = `You hold ${count} claims.`;",
  'throw new UsageError("unknown command here");',
  'const wide = "…"; const after = "Still counted on line eleven.";',
].join("\n");

describe("no user-facing words outside the catalog", { timeout: 120_000 }, () => {
  const paths = SCANNED.flatMap(sourceFiles).sort();
  let findings: Finding[] = [];
  let sample: Finding[] = [];
  const sampleDir = mkdtempSync(join(tmpdir(), "gw-words-"));
  before(() => {
    const repo = parseAll(ROOT, paths);
    findings = [...repo.files].flatMap(([path, file]) => proseIn(path, file));
    repo.close();
    writeFileSync(join(sampleDir, "tsconfig.json"), JSON.stringify({ include: ["sample.ts"] }));
    writeFileSync(join(sampleDir, "sample.ts"), SAMPLE);
    const samples = parseAll(sampleDir, ["sample.ts"]);
    sample = proseIn("sample.ts", samples.files.get("sample.ts")!);
    samples.close();
  });
  after(() => rmSync(sampleDir, { recursive: true, force: true }));

  test("the prose detector finds sentences and labels, not code", () => {
    for (const prose of [
      "You hold no claims.",
      "Right form: ",
      "no host could be read ( {} tried): see the NOTE column or --json",
      "Stop:",
      "Something went wrong on the bot's side; it is logged.",
      "Unknown command `x`; did you mean `y`?",
      "idle since {} ",
    ]) {
      assert.ok(readsAsProse(prose), `prose: ${prose}`);
    }
    for (const code of [
      "gpu_stop_confirm",
      "mrkdwn",
      "plain_text",
      "ddd D MMM",
      "YYYY-MM-DD HH:mm",
      "help.command.status",
      "application/json",
      "<@U123>",
      "`/gpu help`",
      " · ",
      ", ",
      "{} {}",
      "*{}*",
      "GPU",
      "ok",
      "chat.postMessage",
      "--since",
      "x-slack-signature",
      "%s:%s",
      "max by ( {} ) (max_over_time(DCGM_FI_DEV_FB_USED[ {} ]))",
    ]) {
      assert.ok(!readsAsProse(code), `code: ${code}`);
    }
  });

  test("the walk skips imports, logger calls, built-in errors, keys, types, ids and marked lines", () => {
    assert.deepEqual(
      sample.map((finding) => `${finding.line}: ${finding.text}`),
      [
        "8: This is a sentence.",
        "9: You hold  {}  claims.",
        "10: unknown command here",
        "11: Still counted on line eleven.",
      ],
    );
  });

  test("no prose literal outside the catalog", () => {
    assert.deepEqual(
      findings.map((finding) => `${finding.file}:${finding.line}: ${finding.text}`),
      [],
      "move these words into src/messages/ (or mark a line that is not for people `// words-ok: why`)",
    );
    assert.ok(paths.length > 50, `${paths.length} files walked`);
  });
});
