/**
 * Loose matching of what people type (`a100`, `h100`, `4090`, `rtx4090`, `a100-80gb`) against the
 * GPU model names sources report (`NVIDIA A100-SXM4-80GB`, `NVIDIA GeForce RTX 4090`). Pure.
 */

/** Lower-case runs of letters and digits: `NVIDIA A100-SXM4-80GB` → `nvidia a100 sxm4 80gb`. */
function tokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/**
 * The models `query` names. Exact first: every word of the query is a word of the model name (`a10`
 * names the A10, not the A100). When no model matches exactly, loose: every word of the query is
 * part of the model name with spaces and dashes removed (`rtx4090`). Empty when nothing matches.
 */
export function matchModels(query: string, models: readonly string[]): string[] {
  const wanted = tokens(query);
  if (wanted.length === 0) return [];
  const distinct = [...new Set(models)];
  const exact = distinct.filter((model) => {
    const words = new Set(tokens(model));
    return wanted.every((word) => words.has(word));
  });
  if (exact.length > 0) return exact;
  return distinct.filter((model) => {
    const squashed = tokens(model).join("");
    return wanted.every((word) => squashed.includes(word));
  });
}
