import { architectureDoc } from "./architecture-doc.ts";
import { configurationDoc, readSchemaSource } from "./configuration-doc.ts";
import { operationsDoc } from "./metrics-doc.ts";

/** A generated document: its path in the repository and its full text. */
export interface GeneratedDoc {
  path: string;
  text: string;
}

/** Every generated document, as `npm run docs` writes it. */
export async function generatedDocs(root: string): Promise<GeneratedDoc[]> {
  return [
    { path: "docs/configuration.md", text: configurationDoc(readSchemaSource(root)) },
    { path: "docs/architecture.md", text: architectureDoc(root) },
    { path: "docs/operations.md", text: await operationsDoc(root) },
  ];
}
