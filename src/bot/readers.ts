import type { Translator } from "../messages/translator.ts";
import { type TeamMessageSettings, translatorFor } from "../messages/translator.ts";

/**
 * People's Slack locales (`users.info` with `include_locale`), for `team.language: auto`. `cached` is
 * what is known now (`undefined`: never looked up); `lookUp` asks Slack (or the cache) and answers
 * `null` when the locale cannot be had.
 */
export interface LocaleDirectory {
  cached(user: string): string | null | undefined;
  lookUp(user: string): Promise<string | null>;
}

/**
 * Who reads a message, as a translator: the channel (`team.language`; `auto` reads as English
 * there) or one person (their Slack locale under `auto`, else the team's language).
 */
export interface Readers {
  /** The translator for channel posts, the summary and its chart. */
  readonly channel: Translator;
  /**
   * The translator for what `user` alone reads, from the locale known now: a person never looked up
   * reads the team's language (English under `auto`) and is looked up in the background.
   */
  person(user: string): Translator;
  /** The translator for `user` after looking their locale up (cached); listeners await this. */
  lookUp(user: string): Promise<Translator>;
  /**
   * Looks up the locales of `users` (at start: owners, the warden roster, admins) so that the first
   * DM to each is in their language; resolves when all are known or after `timeoutMs`.
   */
  lookUpAll(users: Iterable<string>, timeoutMs: number): Promise<void>;
}

/** Readers for `team`; without a locale directory (no Slack, or a fixed language) everyone reads `team.language`. */
export function createReaders(team: TeamMessageSettings, locales?: LocaleDirectory): Readers {
  const channel = translatorFor(team);
  if (team.language !== "auto" || locales === undefined) {
    return { channel, person: () => channel, lookUp: async () => channel, lookUpAll: async () => {} };
  }
  return {
    channel,
    person(user) {
      const locale = locales.cached(user);
      if (locale === undefined) void locales.lookUp(user);
      return translatorFor(team, locale);
    },
    async lookUp(user) {
      return translatorFor(team, await locales.lookUp(user));
    },
    async lookUpAll(users, timeoutMs) {
      const all = Promise.all([...new Set(users)].map((user) => locales.lookUp(user).catch(() => null)));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([all, late]).finally(() => clearTimeout(timer));
    },
  };
}
