// The page's own labels in the team's language: the server embeds them as JSON (`#page-words`).

const words = JSON.parse(globalThis.document?.getElementById("page-words")?.textContent ?? "{}");

/** The label `id` with its `{name}` arguments filled in from `args`. */
export function t(id, args = {}) {
  const text = words[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/** The page's language (`<html lang>`), for dates and times. */
export const pageLang = globalThis.document?.documentElement.lang || "en";
