import type { FileImport } from "./import-graph.ts";

/**
 * The cycles of value imports between files (type-only imports do not count: they are erased), one
 * per strongly connected group of files, each written as the path round it: `[a, b, c, a]`.
 */
export function valueImportCycles(imports: readonly FileImport[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { file, target, typeOnly } of imports) {
    if (typeOnly) continue;
    const targets = next.get(file) ?? new Set<string>();
    targets.add(target);
    next.set(file, targets);
  }
  return stronglyConnected(next)
    .filter((group) => group.length > 1 || next.get(group[0]!)?.has(group[0]!))
    .map((group) => cycleThrough(next, new Set(group), group.sort()[0]!))
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Tarjan's strongly connected components of a directed graph. */
function stronglyConnected(next: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    groups.push(group);
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** A shortest path from `start` back to itself inside `group` (breadth first). */
function cycleThrough(
  next: ReadonlyMap<string, ReadonlySet<string>>,
  group: ReadonlySet<string>,
  start: string,
) {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const to of [...(next.get(at) ?? [])].sort()) {
      if (!group.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, at);
      if (to === start) queue.length = 0;
      else queue.push(to);
    }
  }
  const path = [start];
  for (let at = cameFrom.get(start); at !== undefined && at !== start; at = cameFrom.get(at))
    path.unshift(at);
  return [start, ...path];
}
