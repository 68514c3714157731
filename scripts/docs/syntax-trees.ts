import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SourceFile } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

/**
 * Parses `paths` (absolute) with the TypeScript compiler itself (TypeScript 7's API,
 * `typescript/unstable/sync`: one compiler process for all of them, no type check, no module
 * resolution) and reads each syntax tree with `read`. The process is closed before this returns.
 */
export function readSyntaxTrees<T>(
  paths: readonly string[],
  read: (file: SourceFile, path: string) => T,
): T[] {
  const dir = mkdtempSync(join(tmpdir(), "gw-syntax-"));
  const options = { noResolve: true, noLib: true, types: [], allowImportingTsExtensions: true, noEmit: true };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ files: paths, compilerOptions: options }));
  const api = new API({ cwd: dir });
  try {
    const project = api.updateSnapshot({ openProject: join(dir, "tsconfig.json") }).getProjects()[0];
    if (project === undefined) throw new Error(`no TypeScript project for ${paths.length} files`);
    return paths.map((path) => {
      const file = project.program.getSourceFile(path);
      if (file === undefined) throw new Error(`${path}: not parsed`);
      return read(file, path);
    });
  } finally {
    api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const lineStarts = new WeakMap<SourceFile, number[]>();

/** The 1-based line of a position in `file`. */
export function lineOf(file: SourceFile, position: number): number {
  let starts = lineStarts.get(file);
  if (starts === undefined) {
    starts = [0];
    for (let at = file.text.indexOf("\n"); at !== -1; at = file.text.indexOf("\n", at + 1))
      starts.push(at + 1);
    lineStarts.set(file, starts);
  }
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (starts[middle]! <= position) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
