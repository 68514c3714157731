import type { webApi } from "@slack/bolt";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { PeopleDirectory } from "../usecases/ports.ts";
import type { LocaleDirectory } from "./readers.ts";
import { missingScope, slackErrorCode, slackErrorHint } from "./transport/slack-error-hint.ts";

/** What `users.info` says of a person, as far as messages need it. */
interface Person {
  name: string | null;
  locale: string | null;
}

/** How long a looked-up name is trusted. */
const NAME_TTL_MS = 24 * 3_600_000;
/** How long a failed lookup is not retried. */
const RETRY_AFTER_MS = 10 * 60_000;

/**
 * Names and locales from `users.info` (scope `users:read`, `include_locale`), cached for a day: the
 * display name a person chose, else their real name, else their handle; their Slack locale. A failed
 * lookup is logged once per Slack error code (with the fix) and that person is left out, so the caller
 * falls back to the member ID (and the team's language).
 */
export function slackPeopleDirectory(
  client: Pick<webApi.WebClient, "users">,
  clock: Clock,
  logger: Logger,
  botName = "gpu-warden",
): PeopleDirectory & LocaleDirectory {
  const cache = new Map<string, Person & { atMs: number }>();
  const pending = new Map<string, Promise<Person | null>>();
  const warned = new Set<string>();
  const fetchPerson = async (user: string): Promise<Person | null> => {
    try {
      const { user: info } = await client.users.info({ user, include_locale: true });
      const name = [info?.profile?.display_name, info?.real_name, info?.name].find(
        (candidate) => typeof candidate === "string" && candidate.trim() !== "",
      );
      const person = { name: name ?? null, locale: info?.locale ?? null };
      cache.set(user, { ...person, atMs: clock.now() });
      return person;
    } catch (error) {
      const code = slackErrorCode(error) ?? "request_failed";
      if (!warned.has(code)) {
        warned.add(code);
        logger.warn(
          { user, slackError: code, hint: slackErrorHint(code, { botName, needed: missingScope(error) }) },
          `could not look up a person's name (${code}); showing the member ID instead`,
        );
      }
      cache.set(user, { name: null, locale: null, atMs: clock.now() - NAME_TTL_MS + RETRY_AFTER_MS });
      return null;
    }
  };
  const lookUp = (user: string): Promise<Person | null> => {
    const cached = cache.get(user);
    if (cached !== undefined && clock.now() - cached.atMs < NAME_TTL_MS) return Promise.resolve(cached);
    let asked = pending.get(user);
    if (asked === undefined) {
      asked = fetchPerson(user).finally(() => pending.delete(user));
      pending.set(user, asked);
    }
    return asked;
  };
  return {
    cached: (user) => {
      const cached = cache.get(user);
      return cached === undefined ? undefined : cached.locale;
    },
    lookUp: async (user) => (await lookUp(user))?.locale ?? null,
    async names(users) {
      const unique = [...new Set(users)];
      const found = await Promise.all(
        unique.map(async (user) => [user, (await lookUp(user))?.name ?? null] as const),
      );
      return new Map(found.flatMap(([user, name]) => (name === null ? [] : [[user, name] as const])));
    },
  };
}
