import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/store/open-database.ts";

let template: string | undefined;

/**
 * `path`, made a copy of a store migrated once per process when it does not exist yet: tests open a
 * store of the released schema without running every migration again for each store (the migrations'
 * own tests start from empty files). An existing file is left as it is.
 */
export function migratedStoreAt(path: string): string {
  if (template === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "gpu-warden-template-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const made = join(dir, "gpu-warden.db");
    openDatabase(made).close();
    template = made;
  }
  if (!existsSync(path)) copyFileSync(template, path);
  return path;
}
