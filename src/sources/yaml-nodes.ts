import { type Document, isAlias, isMap, isScalar, isSeq, type LineCounter, type Node } from "yaml";

/** How deep `<<` merges and aliases are followed: enough for any real file, bounded for hostile ones. */
const MAX_HOPS = 16;

/** Reads a parsed YAML document by key with the line each value is on, following aliases and `<<` merges. */
export interface YamlReader {
  /** The node under `key` in a mapping, `undefined` when absent or not a mapping. */
  get(node: unknown, key: string): Node | undefined;
  /** The node under the path of keys. */
  at(node: unknown, ...keys: string[]): Node | undefined;
  /** The items of a sequence (none when it is not one). */
  items(node: unknown): Node[];
  /** The keys and values of a mapping, merges included (none when it is not one). */
  entries(node: unknown): [string, Node][];
  /** A scalar's text (numbers as written), `undefined` for anything else. */
  text(node: unknown): string | undefined;
  /** The 1-based line where a node starts; `fallback` when it has no position. */
  line(node: unknown, fallback: number): number;
  /** The line of the key that holds `key` in a mapping. */
  keyLine(node: unknown, key: string, fallback: number): number;
}

export function yamlReader(doc: Document, lines: LineCounter): YamlReader {
  const resolve = (node: unknown): unknown => {
    let current = node;
    for (let hop = 0; hop < MAX_HOPS && isAlias(current); hop++) current = current.resolve(doc);
    return isAlias(current) ? undefined : current;
  };
  const entries = (node: unknown, hops = 0): [string, Node][] => {
    const map = resolve(node);
    if (!isMap(map) || hops > MAX_HOPS) return [];
    const own: [string, Node][] = [];
    const merged: [string, Node][] = [];
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key === "symbol" || key === "<<") {
        const sources = isSeq(resolve(pair.value))
          ? (resolve(pair.value) as { items: unknown[] }).items
          : [pair.value];
        for (const source of sources) merged.push(...entries(source, hops + 1));
      } else if ((typeof key === "string" || typeof key === "number") && pair.value !== null) {
        own.push([String(key), pair.value as Node]);
      }
    }
    const ownKeys = new Set(own.map(([key]) => key));
    return [...own, ...merged.filter(([key]) => !ownKeys.has(key))];
  };
  const keyNode = (node: unknown, key: string): unknown => {
    const map = resolve(node);
    if (!isMap(map)) return undefined;
    return map.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === key)?.key;
  };
  const line = (node: unknown, fallback: number): number => {
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return range === undefined ? fallback : lines.linePos(range[0]).line;
  };
  const get = (node: unknown, key: string): Node | undefined => {
    for (const [name, value] of entries(node)) if (name === key) return resolve(value) as Node | undefined;
    return undefined;
  };
  return {
    get,
    at: (node, ...keys) =>
      keys.reduce<unknown>((current, key) => get(current, key), node) as Node | undefined,
    items: (node) => {
      const seq = resolve(node);
      return isSeq(seq) ? (seq.items.map(resolve).filter((item) => item !== undefined) as Node[]) : [];
    },
    entries: (node) => entries(node).map(([key, value]) => [key, resolve(value) as Node]),
    text: (node) => {
      const scalar = resolve(node);
      if (!isScalar(scalar)) return undefined;
      const value = scalar.value;
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return scalar.source ?? String(value);
      return undefined;
    },
    line,
    keyLine: (node, key, fallback) => line(keyNode(node, key), line(get(node, key), fallback)),
  };
}
