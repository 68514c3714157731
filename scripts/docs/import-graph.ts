import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** One import edge between two parts of src/ (folders; `bot` is split into its listeners and views). */
export interface ImportEdge {
  from: string;
  to: string;
  /** Import statements from files of `from` to files of `to`. */
  imports: number;
  /** True when every one of them imports only types (`import type`, `export type`). */
  typeOnly: boolean;
}

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `{ type A, type B }`: a clause that names only types. */
function onlyTypes(clause: string | undefined): boolean {
  const names = /^\{([^}]*)\}$/.exec(clause?.trim() ?? "")?.[1];
  if (names === undefined) return false;
  const specifiers = names
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return specifiers.length > 0 && specifiers.every((name) => name.startsWith("type "));
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

function namesOf(clause: string | undefined): string[] {
  const names = /^\{([^}]*)\}$/.exec(clause?.trim() ?? "")?.[1];
  return (names ?? "")
    .split(",")
    .map(
      (name) =>
        name
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]!,
    )
    .filter(Boolean);
}

/** Every import statement between different parts of `src/`, by file. */
export function importStatements(src: string): ImportStatement[] {
  const statements: ImportStatement[] = [];
  for (const file of sourceFiles(src).sort()) {
    const text = readFileSync(file, "utf8");
    const found = [
      ...[...text.matchAll(IMPORT)].map((m) => ({
        target: m[3]!,
        typeOnly: m[1] !== undefined || onlyTypes(m[2]),
        names: namesOf(m[2]),
      })),
      ...[...text.matchAll(DYNAMIC_IMPORT)].map((m) => ({ target: m[1]!, typeOnly: false, names: [] })),
    ];
    const from = partOf(src, file);
    for (const { target, typeOnly, names } of found) {
      const to = partOf(src, resolve(dirname(file), target));
      if (from !== to) statements.push({ file: relative(src, file), from, to, typeOnly, names });
    }
  }
  return statements;
}

/** Every import between different parts of `src/`, sorted. */
export function importEdges(src: string): ImportEdge[] {
  const edges = new Map<string, ImportEdge>();
  for (const { from, to, typeOnly } of importStatements(src)) {
    const key = `${from}→${to}`;
    const edge = edges.get(key) ?? { from, to, imports: 0, typeOnly: true };
    edge.imports++;
    edge.typeOnly &&= typeOnly;
    edges.set(key, edge);
  }
  return [...edges.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}
