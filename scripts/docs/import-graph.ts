import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import {
  type ExportDeclaration,
  type ImportDeclaration,
  type Node,
  type SourceFile,
  SyntaxKind,
} from "typescript/unstable/ast";
import {
  isCallExpression,
  isExportDeclaration,
  isImportDeclaration,
  isImportTypeNode,
  isLiteralTypeNode,
  isNamedExports,
  isNamedImports,
  isNoSubstitutionTemplateLiteral,
  isStringLiteral,
  isTemplateExpression,
} from "typescript/unstable/ast/is";
import { readSyntaxTrees } from "./syntax-trees.ts";

/** One import edge between two parts of src/ (folders; `bot` is split into its listeners and views). */
export interface ImportEdge {
  from: string;
  to: string;
  /** Import statements from files of `from` to files of `to`. */
  imports: number;
  /** True when every one of them imports only types (`import type`, `export type`). */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** One module reference in a file: an import, a re-export, a dynamic import or an `import("…")` type. */
export interface ModuleReference {
  /** As written (`../store/claim-store.ts`); a template literal's text up to its first `${`. */
  specifier: string;
  typeOnly: boolean;
  /** The names it imports (`type ` and `as …` dropped); empty for a dynamic or namespace import. */
  names: string[];
}

function stringOf(node: Node | undefined): string | null {
  if (node === undefined) return null;
  if (isStringLiteral(node) || isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (isTemplateExpression(node)) return node.head.text;
  return null;
}

function importOf(node: ImportDeclaration): ModuleReference | null {
  const specifier = stringOf(node.moduleSpecifier);
  if (specifier === null) return null;
  const clause = node.importClause;
  const bindings = clause?.namedBindings;
  const elements = bindings !== undefined && isNamedImports(bindings) ? bindings.elements : [];
  const typeOnly =
    clause?.phaseModifier === SyntaxKind.TypeKeyword ||
    (clause !== undefined &&
      clause.name === undefined &&
      elements.length > 0 &&
      elements.every((element) => element.isTypeOnly));
  return {
    specifier,
    typeOnly,
    names: elements.map((element) => (element.propertyName ?? element.name).text),
  };
}

function exportOf(node: ExportDeclaration): ModuleReference | null {
  const specifier = stringOf(node.moduleSpecifier);
  if (specifier === null) return null;
  const elements =
    node.exportClause !== undefined && isNamedExports(node.exportClause) ? node.exportClause.elements : [];
  const typeOnly =
    node.isTypeOnly || (elements.length > 0 && elements.every((element) => element.isTypeOnly));
  return {
    specifier,
    typeOnly,
    names: elements.map((element) => (element.propertyName ?? element.name).text),
  };
}

/**
 * Every module a parsed file refers to, read off its syntax tree (so an import after a comment, a
 * dynamic import written with backticks and a re-export all count).
 */
export function moduleReferences(file: SourceFile): ModuleReference[] {
  const found: ModuleReference[] = [];
  const visit = (node: Node): void => {
    let reference: ModuleReference | null = null;
    if (isImportDeclaration(node)) reference = importOf(node);
    else if (isExportDeclaration(node)) reference = exportOf(node);
    else if (isCallExpression(node) && node.expression.kind === SyntaxKind.ImportKeyword) {
      const specifier = stringOf(node.arguments[0]);
      reference = specifier === null ? null : { specifier, typeOnly: false, names: [] };
    } else if (isImportTypeNode(node) && isLiteralTypeNode(node.argument)) {
      const specifier = stringOf(node.argument.literal);
      reference = specifier === null ? null : { specifier, typeOnly: true, names: [] };
    }
    if (reference !== null) found.push(reference);
    node.forEachChild(visit);
  };
  visit(file);
  return found;
}

/** One relative module reference from a file of `src/` to another (paths relative to `src/`). */
export interface FileImport {
  file: string;
  /** The file (or, for a template literal, the folder) it names. */
  target: string;
  typeOnly: boolean;
  names: string[];
}

const parsed = new Map<string, { stamp: string; imports: readonly FileImport[] }>();

/** The files' paths, sizes and modification times: what says whether a parse still holds. */
function stampOf(paths: readonly string[]): string {
  return paths
    .map((path) => {
      const { size, mtimeMs } = statSync(path);
      return `${path} ${size} ${mtimeMs}`;
    })
    .join("\n");
}

/**
 * Every relative import, re-export and dynamic import under `src`, by file. The parse is kept for
 * the process while no file under `src` changes (the docs generator and the repository checks ask
 * several times).
 */
export function fileImports(src: string): FileImport[] {
  const paths = sourceFiles(src).sort();
  const stamp = stampOf(paths);
  let known = parsed.get(src);
  if (known?.stamp !== stamp) {
    known = { stamp, imports: parseImports(src, paths) };
    parsed.set(src, known);
  }
  return known.imports.map((entry) => ({ ...entry, names: [...entry.names] }));
}

function parseImports(src: string, paths: readonly string[]): FileImport[] {
  return readSyntaxTrees(paths, (file, path) =>
    moduleReferences(file)
      .filter((reference) => reference.specifier.startsWith("./") || reference.specifier.startsWith("../"))
      .map(({ specifier, typeOnly, names }) => ({
        file: relative(src, path),
        target: relative(src, resolve(dirname(path), specifier)),
        typeOnly,
        names,
      })),
  ).flat();
}

/** The part of src/ a file belongs to: `main`, `cli`, `config`, `bot`, `bot/views`, … */
export function partOf(src: string, file: string): string {
  const parts = relative(src, file).split(sep);
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, "");
  if (parts[0] === "bot" && parts.length > 2 && (parts[1] === "listeners" || parts[1] === "views")) {
    return `bot/${parts[1]}`;
  }
  return parts[0]!;
}

/** One import statement from a file of one part of `src/` to a file of another. */
export interface ImportStatement {
  file: string;
  from: string;
  to: string;
  typeOnly: boolean;
  /** The names it imports (`type ` and `as …` dropped); empty for a dynamic or namespace import. */
  names: string[];
}

/** Every import statement between different parts of `src/`, by file. */
export function importStatements(src: string): ImportStatement[] {
  return fileImports(src).flatMap(({ file, target, typeOnly, names }) => {
    const from = partOf(src, join(src, file));
    const to = partOf(src, join(src, target));
    return from === to ? [] : [{ file, from, to, typeOnly, names }];
  });
}

/** Every import between different parts of `src/`, sorted. */
export function importEdges(src: string, statements = importStatements(src)): ImportEdge[] {
  const edges = new Map<string, ImportEdge>();
  for (const { from, to, typeOnly } of statements) {
    const key = `${from}→${to}`;
    const edge = edges.get(key) ?? { from, to, imports: 0, typeOnly: true };
    edge.imports++;
    edge.typeOnly &&= typeOnly;
    edges.set(key, edge);
  }
  return [...edges.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}
