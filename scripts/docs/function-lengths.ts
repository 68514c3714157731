import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { Node, SourceFile } from "typescript/unstable/ast";
import {
  isArrowFunction,
  isFunctionLikeDeclaration,
  isIdentifier,
  isPropertyAssignment,
  isVariableDeclaration,
} from "typescript/unstable/ast/is";
import { lineOf, readSyntaxTrees } from "./syntax-trees.ts";

/** A function and how many lines it spans, from the start of its signature to the end of its body. */
export interface FunctionLength {
  /** Relative to the folder scanned, `/`-separated. */
  file: string;
  /** 1-based line of the signature. */
  line: number;
  name: string;
  lines: number;
}

/** The name a function goes by: its own, or that of the variable or property it is assigned to. */
function nameOf(node: Node, file: SourceFile): string {
  const own = (node as { name?: Node }).name;
  if (own !== undefined) return own.getText(file);
  const parent = node.parent;
  if ((isVariableDeclaration(parent) || isPropertyAssignment(parent)) && isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return "(anonymous)";
}

/**
 * Every function of a parsed file with a body, nested ones included, read off the syntax tree:
 * declarations, expressions, arrows (a block or an expression body), methods, constructors and
 * accessors.
 */
export function functionLengths(file: SourceFile, path: string): FunctionLength[] {
  const found: FunctionLength[] = [];
  const visit = (node: Node): void => {
    const body = isFunctionLikeDeclaration(node) || isArrowFunction(node) ? node.body : undefined;
    if (body !== undefined) {
      const line = lineOf(file, node.getStart(file));
      found.push({
        file: path,
        line,
        name: nameOf(node, file),
        lines: lineOf(file, node.getEnd()) - line + 1,
      });
    }
    node.forEachChild(visit);
  };
  visit(file);
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
  return readSyntaxTrees(sourceFiles(dir), (file, path) =>
    functionLengths(file, relative(dir, path).split("\\").join("/")),
  )
    .flat()
    .filter((fn) => fn.lines > maxLines)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}
