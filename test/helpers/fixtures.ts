import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `test/fixtures`: real captures copied into the repository (origins and licences in its README). */
export const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES_DIR, ...parts);
}

export function readFixture(...parts: string[]): string {
  return readFileSync(fixturePath(...parts), "utf8");
}

/** File names in a fixture folder, sorted. */
export function listFixtures(...parts: string[]): string[] {
  return readdirSync(fixturePath(...parts)).sort();
}
