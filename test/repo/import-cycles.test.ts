import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { valueImportCycles } from "../../scripts/docs/import-cycles.ts";
import { fileImports } from "../../scripts/docs/import-graph.ts";
import { REPO_ROOT } from "../helpers/built-bin.ts";

const edge = (file: string, target: string, typeOnly = false) => ({ file, target, typeOnly, names: [] });

describe("import cycles", () => {
  test("no value-import cycle between files of src/ (type-only imports do not count)", () => {
    assert.deepEqual(
      valueImportCycles(fileImports(join(REPO_ROOT, "src"))).map((cycle) => cycle.join(" → ")),
      [],
      "break the cycle: move what both sides need into a file of its own",
    );
  });

  test("finds a cycle of value imports, however long, and not one closed by a type-only import", () => {
    const imports = [
      edge("views/claim-reply.ts", "views/reservation-lines.ts"),
      edge("views/reservation-lines.ts", "views/home-view.ts"),
      edge("views/home-view.ts", "views/claim-reply.ts"),
      edge("views/home-view.ts", "views/reply-message.ts"),
      edge("checks/a.ts", "checks/b.ts"),
      edge("checks/b.ts", "checks/a.ts", true),
      edge("jobs/self.ts", "jobs/self.ts"),
    ];
    assert.deepEqual(
      valueImportCycles(imports).map((cycle) => cycle.join(" → ")),
      [
        "jobs/self.ts → jobs/self.ts",
        "views/claim-reply.ts → views/reservation-lines.ts → views/home-view.ts → views/claim-reply.ts",
      ],
    );
  });
});
