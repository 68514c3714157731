/**
 * The TSDoc comments of src/config/schema.ts, by key. A comment belongs to the key on the line after
 * it; the keys of the object literal around it (its siblings) tell objects with the same key apart.
 */
export interface KeyComment {
  key: string;
  siblings: string[];
  text: string;
}

const KEY_LINE = /^(\s*)([A-Za-z_]\w*): /;
const indentOf = (line: string) => line.length - line.trimStart().length;

function commentText(lines: string[]): string {
  return lines
    .map((line) =>
      line
        .trim()
        .replace(/^\/\*\*\s?/, "")
        .replace(/\s?\*\/$/, "")
        .replace(/^\*\s?/, ""),
    )
    .filter((line) => line !== "")
    .join(" ");
}

function siblingKeys(lines: string[], keyIndex: number, indent: number): string[] {
  let opener = keyIndex - 1;
  while (opener >= 0 && (lines[opener]!.trim() === "" || indentOf(lines[opener]!) >= indent)) opener--;
  const keys: string[] = [];
  for (let index = opener + 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    if (indentOf(line) < indent) break;
    const match = KEY_LINE.exec(line);
    if (match && match[1]!.length === indent) keys.push(match[2]!);
  }
  return keys;
}

/** Every `/** … *\/` comment directly above a `key:` line of an object literal. */
export function schemaComments(source: string): KeyComment[] {
  const lines = source.split("\n");
  const found: KeyComment[] = [];
  for (let start = 0; start < lines.length; start++) {
    if (!lines[start]!.trim().startsWith("/**")) continue;
    let end = start;
    while (end < lines.length && !lines[end]!.includes("*/")) end++;
    const match = KEY_LINE.exec(lines[end + 1] ?? "");
    if (match) {
      found.push({
        key: match[2]!,
        siblings: siblingKeys(lines, end + 1, match[1]!.length),
        text: commentText(lines.slice(start, end + 1)),
      });
    }
    start = end;
  }
  return found;
}

/** The comment of `key` in the object whose keys are `keys`, if any. */
export function commentFor(comments: KeyComment[], key: string, keys: readonly string[]): string | null {
  const wanted = [...keys].sort().join(",");
  return (
    comments.find((comment) => comment.key === key && [...comment.siblings].sort().join(",") === wanted)
      ?.text ?? null
  );
}
