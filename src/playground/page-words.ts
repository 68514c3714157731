import type { ArgsFor, MessageId } from "../messages/catalog.ts";
import { playground } from "../messages/en/playground.ts";
import { languageFor } from "../messages/languages.ts";
import { type TeamMessageSettings, translatorFor } from "../messages/translator.ts";

/** The page's own labels in the team's language: `<html lang>` and every `playground.*` message. */
export interface PageWords {
  lang: string;
  /** Each message with its arguments left as `{name}`, for the page to fill in. */
  words: Record<string, string>;
}

type PageMessageId = keyof typeof playground & MessageId;

/** The page's words for the team (`team.language`; `auto` reads as English, as the channel does). */
export function pageWords(team: TeamMessageSettings): PageWords {
  const tr = translatorFor(team);
  const words: Record<string, string> = {};
  for (const id of Object.keys(playground) as PageMessageId[]) {
    const names = [...playground[id].matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
    const args = Object.fromEntries(names.map((name) => [name, `{${name}}`]));
    words[id] = tr.t(id, ...([args] as unknown as ArgsFor<typeof id>));
  }
  return { lang: languageFor(team.language), words };
}

/**
 * The page's HTML in the team's language: `{{id}}` replaced by the message `id` (escaped), `lang`
 * set, and the words embedded as JSON (`#page-words`) for the page's script.
 */
export function localisePage(html: string, page: PageWords): string {
  const json = JSON.stringify(page.words).replace(/</g, "\\u003c");
  return html
    .replace('<html lang="en">', `<html lang="${page.lang}">`)
    .replace("<!--page-words-->", `<script type="application/json" id="page-words">${json}</script>`)
    .replace(/\{\{([\w.]+)\}\}/g, (_, id: string) => {
      const text = page.words[id];
      if (text === undefined) throw new Error(`the page names an unknown message: ${id}`);
      return escapeHtml(text);
    });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
