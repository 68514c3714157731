import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { functionLengths, longFunctions } from "../../scripts/docs/function-lengths.ts";
import { REPO_ROOT } from "../helpers/built-bin.ts";

/** A function you cannot read in one screen is two functions (the house style). */
const MAX_LINES = 100;

/**
 * The functions still allowed to be longer, each with why; `file name`. Remove an entry when its
 * function is split (the test fails on an entry that no longer needs it).
 */
const ALLOWED: Readonly<Record<string, string>> = {};

describe("function length", () => {
  test(`no function in src/ is over ${MAX_LINES} lines, outside the allowlist`, () => {
    const long = longFunctions(join(REPO_ROOT, "src"), MAX_LINES);
    assert.deepEqual(
      long
        .filter((fn) => !(`${fn.file} ${fn.name}` in ALLOWED))
        .map((fn) => `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`),
      [],
      "split it (small files named after what they export)",
    );
    const stillLong = new Set(long.map((fn) => `${fn.file} ${fn.name}`));
    assert.deepEqual(
      Object.keys(ALLOWED).filter((key) => !stillLong.has(key)),
      [],
      "remove the allowlist entries that are no longer needed",
    );
  });

  test("measures declarations, arrows, methods and multi-line signatures, from signature to brace", () => {
    const body = (indent: string, n: number) => Array.from({ length: n }, (_, i) => `${indent}  step${i}();`);
    const text = [
      "export async function declared(a: number): Promise<void> {",
      ...body("", 3),
      "}",
      "const arrow = async (x: string) => {",
      ...body("", 2),
      "};",
      "export function multi(",
      "  a: number,",
      "): { ok: boolean } {",
      ...body("", 1),
      "  if (a) {",
      "    nested();",
      "  }",
      "  return { ok: true };",
      "}",
      "class Thing {",
      "  async run(signal: AbortSignal): Promise<void> {",
      ...body("  ", 4),
      "  }",
      "}",
    ].join("\n");
    assert.deepEqual(
      functionLengths(text, "x.ts").map((fn) => [fn.name, fn.line, fn.lines]),
      [
        ["declared", 1, 5],
        ["arrow", 6, 4],
        ["multi", 10, 9],
        ["run", 20, 6],
      ],
    );
  });
});
