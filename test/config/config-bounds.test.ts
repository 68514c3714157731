import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import type { z } from "zod";
import { describeConfigError, MAX_PROBLEMS_SHOWN } from "../../src/config/describe-config.ts";
import { ConfigError, loadConfig } from "../../src/config/load-config.ts";
import { configSchema } from "../../src/config/schema.ts";
import { cronForInterval } from "../../src/shared/cron-for-interval.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-config-bounds-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const bin = resolve("bin/gpu-warden.js");

function write(text: string): string {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return file;
}

function problemsOf(text: string): ConfigError {
  try {
    loadConfig({}, { file: write(text), cwd: dir });
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected the configuration to be rejected");
}

/** `gpu-warden check-config` on `text` through the real bin: what a person sees, stack traces included. */
function checkConfigBin(text: string) {
  const result = spawnSync(process.execPath, [bin, "check-config", "--config", write(text)], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same in this process (`runCli`). */
function checkConfig(text: string) {
  return runCliHere(["check-config", "--config", write(text)], {
    cwd: dir,
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent" },
  });
}

/** Every leaf of the schema with its dotted path (`*` for list items and map values). */
function leaves(schema: z.core.$ZodType, path: string): [string, z.core.$ZodType][] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "object":
      return Object.entries(def.shape as Record<string, z.core.$ZodType>).flatMap(([key, inner]) =>
        leaves(inner, path ? `${path}.${key}` : key),
      );
    case "optional":
    case "default":
    case "prefault":
    case "nullable":
      return leaves(def.innerType as z.core.$ZodType, path);
    case "array":
      return leaves(def.element as z.core.$ZodType, `${path}.*`);
    case "record":
      return [
        ...leaves(def.keyType as z.core.$ZodType, `${path}.<key>`),
        ...leaves(def.valueType as z.core.$ZodType, `${path}.*`),
      ];
    case "union":
      return (def.options as z.core.$ZodType[]).flatMap((option) => leaves(option, path));
    default:
      return [[path, schema]];
  }
}

describe("config bounds", () => {
  it("every number in the schema has real bounds and every free string a length limit", () => {
    const unbounded: string[] = [];
    for (const [path, schema] of leaves(configSchema, "")) {
      const bounds = schema as unknown as {
        minValue?: number | null;
        maxValue?: number | null;
        maxLength?: number | null;
      };
      const type = (schema._zod.def as { type: string }).type;
      if (type === "number") {
        const min = bounds.minValue ?? Number.NEGATIVE_INFINITY;
        const max = bounds.maxValue ?? Number.POSITIVE_INFINITY;
        if (!(min > -1e12 && max < 1e12)) unbounded.push(`${path}: ${min} … ${max}`);
      }
      const format = (schema._zod.def as { format?: string }).format;
      if (type === "string" && (bounds.maxLength ?? null) === null && format !== "date") {
        const checks =
          (schema._zod.def as { checks?: { _zod: { def: { format?: string; pattern?: RegExp } } }[] })
            .checks ?? [];
        const fixed = checks.some((check) => {
          const { format, pattern } = check._zod.def;
          return format === "date" || (pattern !== undefined && !/[*+]/.test(pattern.source));
        });
        if (!fixed) unbounded.push(`${path}: string without a length limit`);
      }
    }
    assert.deepEqual(unbounded, []);
  });

  it("refuses a poll interval that is negative, zero, too short or too long; the loop cannot spin", async () => {
    for (const seconds of [-60, 0, 1, 7, 7200]) {
      const error = problemsOf(`poll: { interval_seconds: ${seconds} }\n`);
      assert.deepEqual(
        error.problems.map((p) => p.path),
        ["poll.interval_seconds"],
        `interval ${seconds}`,
      );
    }
    assert.equal(problemsOf("poll: { interval_seconds: -60 }\n").problems[0]?.expected, "at least 5");
    assert.equal(cronForInterval(-60), null);
    assert.equal(cronForInterval(0), null);
    assert.equal(cronForInterval(0.5), null);
    const result = await checkConfig("poll: { interval_seconds: -60 }\n");
    assert.equal(result.code, 2);
    assert.doesNotMatch(result.stdout, /every -60 s/);
  });

  it("says 'more than 0' for a value that must be above 0, and no host-name hint for a negative price", () => {
    const above = problemsOf("policy: { idle_for_minutes: 0 }\n").problems[0];
    assert.deepEqual(above, {
      path: "policy.idle_for_minutes",
      expected: "more than 0",
      found: "number 0",
      hint: null,
    });
    const price = problemsOf("hosts: { gpu-a: { cost_per_hour: -1 } }\n").problems[0];
    assert.deepEqual(price, {
      path: "hosts.gpu-a.cost_per_hour",
      expected: "at least 0",
      found: "number -1",
      hint: null,
    });
    const name = problemsOf("hosts: { 'gpu a!': { cost_per_hour: 1 } }\n").problems[0];
    assert.equal(name?.path, "hosts.gpu a!");
    assert.equal(name?.found, 'the key string "gpu a!"');
    assert.equal(name?.hint, "host names use letters, digits, '.', '_' and '-'");
  });

  it("limits string lengths: a megabyte team name is refused, and shown clipped", () => {
    const error = problemsOf(`team: { name: ${"x".repeat(1_000_000)} }\n`);
    assert.equal(error.problems.length, 1);
    assert.equal(error.problems[0]?.expected, "at most 100 characters");
    assert.match(error.problems[0]?.found ?? "", /^string "x{50,}\.\.\. \(1000000 characters\)$/);
    assert.ok(describeConfigError(error).length < 400);
  });

  it("refuses a YAML alias bomb with a clear problem instead of a stack trace", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
      "",
    ].join("\n");
    const error = problemsOf(bomb);
    assert.deepEqual(error.problems, [
      {
        path: "",
        expected: "at most 100 alias expansions (*name)",
        found: "aliases that expand without end (nested anchors: an alias bomb)",
        hint: "write the values out, or use fewer nested anchors",
      },
    ]);
    const result = checkConfigBin(bomb);
    assert.equal(result.code, 2);
    assert.doesNotMatch(result.stderr, /\n\s+at .*:\d+:\d+\)?\n/, "no stack trace");
  });

  it("applies << merge keys", () => {
    const file = write(
      [
        "x-owned: &owned { purchase_price: 30000, owners: [U024BE7LH] }",
        "hosts:",
        "  gpu-a: { <<: *owned, never_stop: true }",
        "  gpu-b:",
        "    <<: *owned",
        "    purchase_price: 12000",
        "",
      ].join("\n"),
    );
    const error = (() => {
      try {
        return loadConfig({}, { file, cwd: dir });
      } catch (caught) {
        return caught as ConfigError;
      }
    })();
    // The anchor's own top-level key is unknown to the schema: the merge itself must not be.
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(
      error.problems.map((p) => [p.path, p.found]),
      [["", "unknown key(s) 'x-owned'"]],
    );
    const { config } = loadConfig(
      {},
      {
        file: write(
          "hosts:\n  gpu-a: &a { purchase_price: 30000, owners: [U024BE7LH] }\n  gpu-b: { <<: *a, purchase_price: 12000 }\n",
        ),
        cwd: dir,
      },
    );
    assert.equal(config.hosts["gpu-b"]?.purchase_price, 12000);
    assert.deepEqual(config.hosts["gpu-b"]?.owners, ["U024BE7LH"]);
  });

  it(`shows at most ${MAX_PROBLEMS_SHOWN} problems and how many more there are`, async () => {
    const junk = `hosts:\n${Array.from({ length: 400 }, (_, i) => `  h${i}: { bogus: ${i} }`).join("\n")}\n`;
    const result = await checkConfig(junk);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /: 400 problems\n/);
    assert.equal(result.stderr.match(/^ {2}at /gm)?.length, MAX_PROBLEMS_SHOWN);
    assert.match(result.stderr, /\n {2}… and 350 more \(is this the right file\?\)\n$/);
  });

  it("says when the file is empty and every value is a default", async () => {
    const empty = write("# nothing here yet\n");
    assert.equal(loadConfig({}, { file: empty, cwd: dir }).empty, true);
    const result = await checkConfig("");
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^configuration OK: .*\.yaml \(empty: all defaults\)\n/);
  });
});
