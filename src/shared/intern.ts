const interned = new Map<string, string>();
/** Past this many distinct values, strings are returned as they are (the table stays small). */
const MAX_INTERNED = 10_000;

/**
 * One shared copy of a string that repeats across a fleet (a GPU model name): 80,000 GPUs read from
 * JSON or SQLite would otherwise hold 80,000 copies of "NVIDIA H100 80GB HBM3" (3 MB).
 */
export function internString<T extends string | null>(text: T): T {
  if (text === null) return text;
  const known = interned.get(text);
  if (known !== undefined) return known as T;
  if (interned.size < MAX_INTERNED) interned.set(text, text);
  return text;
}
