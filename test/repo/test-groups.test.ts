import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { bundleModules } from "../../scripts/bundle-modules.ts";
import { groupTestFiles, inStartOrder, sharesProcess, startOrder } from "../../scripts/test-groups.ts";
import { tempDir } from "../store/store-fixtures.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const PLAIN = `import { test } from "node:test";\ntest("adds", () => {});\n`;

describe("npm test runs the test files that leave their process as they found it in shared processes", () => {
  test("a file of plain tests, with top-level before and after hooks, shares its process", () => {
    assert.equal(sharesProcess(PLAIN), true);
    const hooks = `import { after, before, test } from "node:test";\nbefore(() => {});\nafter(() => {});\n${PLAIN}`;
    assert.equal(sharesProcess(hooks), true);
    const inTest = `import { test } from "node:test";\ntest("x", async () => {\n  if (Date.now() < 0) await 0;\n});\n`;
    assert.equal(sharesProcess(inTest), true, "a wall-clock read or an await inside a test");
  });

  test("a file that would change or depend on the process runs alone", () => {
    const alone = {
      "a top-level await": `const x = await Promise.resolve(1);\n${PLAIN}`,
      "a per-test hook at the top": `import { beforeEach } from "node:test";\nbeforeEach(() => {});\n${PLAIN}`,
      "an environment variable set": `process.env.PATH = "/bin";\n${PLAIN}`,
      "an environment variable removed": `delete process.env.TZ;\n${PLAIN}`,
      "a process-wide listener": `${PLAIN}test("w", () => { process.on("warning", () => {}); });\n`,
      "the working directory": `process.chdir("/");\n${PLAIN}`,
      "a global mock": `import { mock } from "node:test";\nmock.timers.enable();\n${PLAIN}`,
      "a wall-clock instant read while loading": `const NOW = Math.floor(Date.now() / 60_000);\n${PLAIN}`,
      "… or in a describe": `describe("d", () => {\n    const startMs = Date.now();\n});\n`,
    };
    for (const [what, source] of Object.entries(alone)) assert.equal(sharesProcess(source), false, what);
    assert.equal(sharesProcess(`const now = () => Date.now();\n${PLAIN}`), true, "a clock read when called");
  });

  test("the groups take the shared files in turn; alone files keep their order", () => {
    const dir = tempDir("gw-test-groups-");
    try {
      const files = ["a", "b", "c", "d", "e"].map((name) => {
        const path = dir.file(`${name}.test.ts`);
        writeFileSync(path, name === "c" ? `await 0;\n${PLAIN}` : PLAIN);
        return relative(ROOT, path);
      });
      const [a, b, c, d, e] = files as [string, string, string, string, string];
      const { alone, groups } = groupTestFiles(ROOT, files, 2, new Set([d]));
      assert.deepEqual(alone, [c, d]);
      assert.deepEqual(groups, [
        { name: "group-1", files: [a, e] },
        { name: "group-2", files: [b] },
      ]);
    } finally {
      dir.remove();
    }
  });

  test("the processes' modules are named so that node --test, which sorts them, starts them in the order given", () => {
    const order = ["test/crash/crash-campaign.test.ts", { name: "group-1", files: ["test/a.test.ts"] }];
    const many = [...order, ...Array.from({ length: 9 }, (_, at) => `test/bot/z${at}.test.ts`)];
    const named = inStartOrder(many);
    assert.deepEqual(named.slice(0, 2), [
      { name: "01-crash-campaign.test", files: ["test/crash/crash-campaign.test.ts"] },
      { name: "02-group-1", files: ["test/a.test.ts"] },
    ]);
    const names = named.map((unit) => unit.name);
    assert.deepEqual([...names].sort(), names);
    assert.equal(names.at(-1), "11-z8.test");
  });

  test("the long files start first, each group after one of them, the files with a process of their own last", () => {
    const groups = [1, 2, 3].map((n) => ({ name: `group-${n}`, files: [`test/g${n}.test.ts`] }));
    const [g1, g2, g3] = groups;
    assert.deepEqual(startOrder(["crash", "storm", "slack"], groups, ["own"]), [
      "crash",
      "storm",
      g1,
      "slack",
      g2,
      g3,
      "own",
    ]);
    assert.deepEqual(startOrder(["crash", "storm", "slack", "browser", "deploy"], groups.slice(0, 2), []), [
      "crash",
      "storm",
      g1,
      "slack",
      g2,
      "browser",
      "deploy",
    ]);
    assert.deepEqual(startOrder([], groups.slice(0, 1), ["own"]), [g1, "own"]);
  });

  test("a group's module runs every test of its files, and fails when one of them does", async () => {
    const dir = tempDir("gw-test-groups-");
    try {
      const passing = dir.file("passing.test.ts");
      const failing = dir.file("failing.test.ts");
      writeFileSync(
        passing,
        `import { after, test } from "node:test";\nafter(() => {});\ntest("one passes", () => {});\n`,
      );
      writeFileSync(
        failing,
        `import assert from "node:assert/strict";\nimport { test } from "node:test";\ntest("two fails", () => assert.equal(1, 2));\n`,
      );
      const [module] = await bundleModules(
        [{ name: "both", files: [relative(ROOT, passing), relative(ROOT, failing)] }],
        join(dir.file(""), "out"),
      );
      assert.equal(module, join(dir.file(""), "out", "groups", "both.mjs"));
      const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
      const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", module!], {
        encoding: "utf8",
        env,
      });
      assert.equal(run.status, 1, run.stdout);
      assert.match(run.stdout, /\nok 1 - one passes\n/);
      assert.match(run.stdout, /\nnot ok 2 - two fails\n/);
    } finally {
      dir.remove();
    }
  });
});
