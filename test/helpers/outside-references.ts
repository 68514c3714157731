import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** A reference in a repository file to a path that is not inside the repository. */
export interface OutsideReference {
  /** Path of the file, relative to the root, with `/` separators. */
  file: string;
  line: number;
  text: string;
  why: string;
}

const TEXT_EXTENSIONS = new Set([
  ".ts",
  ".js",
  ".mjs",
  ".cjs",
  ".json",
  ".md",
  ".yml",
  ".yaml",
  ".sh",
  ".service",
  ".toml",
  ".txt",
]);
const TEXT_NAMES = new Set(["Dockerfile", ".dockerignore", ".gitignore", "run"]);
const SKIPPED_DIRS = new Set(["node_modules", ".git", "dist", ".tmp"]);
/** Lock files name registry URLs only. */
const SKIPPED_FILES = new Set(["package-lock.json"]);
/** Verbatim third-party data (their README is ours and is scanned). */
const VERBATIM_DIR = "test/fixtures/";

/** `../x`, `../../y/z` as written in code, scripts and Markdown links. */
const PARENT_PATH = /(?<![\w./~$-])(?:\.\.\/)+[\w@./-]*/g;
/** Absolute paths into the development machine's workspace and the reference material kept beside it. */
const MACHINE_PATH =
  /(?<![\w.])\/work\/|(?<![\w-])shared\/(?:fixtures|reference|hooks)\b|\b(?:BENCHMARKS|DESIGN|STYLE)\.md\b/g;
/** Relative Markdown links (not URLs, not anchors). */
const MARKDOWN_LINK = /\]\(((?![a-z][a-z0-9+.-]*:|#)[^)\s#]+)(?:#[^)]*)?\)/g;

/** Every text file the repository is made of (source, tests, scripts, docs, deploy files), relative to `root`. */
export function repositoryTextFiles(root: string, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path).split(sep).join("/");
      if (SKIPPED_FILES.has(rel) || skip.includes(rel)) continue;
      if (rel.startsWith(VERBATIM_DIR) && entry.isFile() && entry.name !== "README.md") continue;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile() && (TEXT_EXTENSIONS.has(extname(entry.name)) || TEXT_NAMES.has(entry.name))) {
        found.push(rel);
      }
    }
  };
  walk(root);
  return found.sort();
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function referencesInLine(root: string, file: string, line: string): string[] {
  const here = dirname(join(root, file));
  const whys: string[] = [];
  for (const match of line.matchAll(PARENT_PATH)) {
    if (!inside(root, resolve(here, match[0]))) whys.push(`${match[0]} leaves the repository`);
  }
  for (const match of line.matchAll(MACHINE_PATH)) whys.push(`${match[0]} is outside the repository`);
  if (file.endsWith(".md")) {
    for (const match of line.matchAll(MARKDOWN_LINK)) {
      const target = resolve(here, match[1]!);
      if (!inside(root, target)) whys.push(`link ${match[1]} leaves the repository`);
      else if (!exists(target)) whys.push(`link ${match[1]} points at nothing`);
    }
  }
  return whys;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every place in the repository's text files that refers to a path outside the repository root
 * (a parent path that climbs out, the development machine's workspace, the reference notes kept
 * beside the checkout) or, in Markdown, links to a file that does not exist.
 */
export function findOutsideReferences(root: string, skip: readonly string[] = []): OutsideReference[] {
  const found: OutsideReference[] = [];
  for (const file of repositoryTextFiles(root, skip)) {
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    lines.forEach((text, index) => {
      for (const why of referencesInLine(root, file, text)) found.push({ file, line: index + 1, text, why });
    });
  }
  return found;
}
