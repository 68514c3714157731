import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { affectedTests } from "../../scripts/test-changed.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("npm run test:changed picks the test files a change affects", () => {
  test("a changed store file: the tests importing it, directly or through a helper, and no unrelated one", () => {
    const picked = affectedTests(ROOT, ["src/store/claim-store.ts"]);
    assert.ok(picked.includes("test/store/claim-store.test.ts"), "imports it through bot-state-store");
    assert.ok(picked.includes("test/usecases/queue-preempt.test.ts"), "through test/helpers/bot-harness.ts");
    assert.ok(!picked.includes("test/sources/parse-who.test.ts"));
  });

  test("a changed test file is run itself; a change outside src/ and test/ picks nothing", () => {
    assert.deepEqual(affectedTests(ROOT, ["test/sources/parse-who.test.ts"]), [
      "test/sources/parse-who.test.ts",
    ]);
    assert.deepEqual(affectedTests(ROOT, ["README.md"]), []);
  });
});
