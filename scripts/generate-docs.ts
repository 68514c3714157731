// `npm run docs`: regenerates every generated document (docs/configuration.md, the import graph in
// docs/architecture.md, the metrics table in docs/operations.md). test/repo/docs.test.ts fails when a committed one is out of date.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedDocs } from "./docs/generated-docs.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
for (const doc of await generatedDocs(root)) {
  writeFileSync(join(root, doc.path), doc.text);
  process.stdout.write(`wrote ${doc.path}\n`);
}
