import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** A function and how many lines it spans, from its first signature line to its closing brace. */
export interface FunctionLength {
  /** Relative to the folder scanned, `/`-separated. */
  file: string;
  /** 1-based line of the signature. */
  line: number;
  name: string;
  lines: number;
}

const DECLARATION = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\b/;
const ARROW_BODY = /=>\s*\{$/;
const METHOD =
  /^(?:(?:public|private|protected|static|async|get|set)\s+)*[\w$]+\s*(?:<[^>]*>)?\([^)]*\)?[^=]*\{$/;
const NOT_A_METHOD = /^(?:if|for|while|switch|catch|with|return|else|do|try|new)\b/;
const NAME = [
  /function\s*\*?\s*([\w$]+)/,
  /(?:const|let|var)\s+([\w$]+)/,
  /^([\w$]+)\s*:/,
  /^(?:(?:public|private|protected|static|async|get|set)\s+)*([\w$]+)\s*(?:<[^>]*>)?\(/,
];

const indentOf = (line: string) => line.length - line.trimStart().length;

function opensFunction(trimmed: string): boolean {
  if (!trimmed.endsWith("{")) return false;
  if (DECLARATION.test(trimmed) || ARROW_BODY.test(trimmed)) return true;
  if (trimmed.startsWith(")")) return /\)(?:\s*:\s*[^=]+)?\s*\{$/.test(trimmed);
  return METHOD.test(trimmed) && !NOT_A_METHOD.test(trimmed);
}

/**
 * The functions of one file that Biome formatted, found by layout: a line that opens a function
 * body (`function`, `=> {`, a method, or the `) {` that closes a multi-line signature) and the next
 * line at the same indentation that starts with `}`.
 */
export function functionLengths(text: string, file: string): FunctionLength[] {
  const lines = text.split("\n");
  const found: FunctionLength[] = [];
  for (let index = 0; index < lines.length; index++) {
    const trimmed = lines[index]!.trim();
    if (!opensFunction(trimmed)) continue;
    const indent = indentOf(lines[index]!);
    let start = index;
    if (trimmed.startsWith(")")) {
      while (start > 0 && (indentOf(lines[start]!) !== indent || lines[start]!.trim().startsWith(")")))
        start--;
    }
    let end = index + 1;
    while (end < lines.length && !(indentOf(lines[end]!) === indent && lines[end]!.trim().startsWith("}")))
      end++;
    const signature = lines[start]!.trim();
    const name = NAME.map((pattern) => pattern.exec(signature)?.[1]).find(Boolean) ?? "(anonymous)";
    found.push({ file, line: start + 1, name, lines: end - start + 1 });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every function under `dir` longer than `maxLines`, longest first. */
export function longFunctions(dir: string, maxLines: number): FunctionLength[] {
  return sourceFiles(dir)
    .flatMap((path) => functionLengths(readFileSync(path, "utf8"), relative(dir, path).split("\\").join("/")))
    .filter((fn) => fn.lines > maxLines)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}
