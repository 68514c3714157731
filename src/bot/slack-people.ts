import type { webApi } from "@slack/bolt";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { PeopleDirectory } from "../usecases/ports.ts";
import { missingScope, slackErrorCode, slackErrorHint } from "./slack-error-hint.ts";

/** How long a looked-up name is trusted. */
const NAME_TTL_MS = 24 * 3_600_000;

/**
 * Names from `users.info` (scope `users:read`), cached for a day: the display name a person chose,
 * else their real name, else their handle. A failed lookup is logged once per Slack error code (with
 * the fix) and that person is left out, so the caller falls back to the member ID.
 */
export function slackPeopleDirectory(
  client: Pick<webApi.WebClient, "users">,
  clock: Clock,
  logger: Logger,
  botName = "gpu-warden",
): PeopleDirectory {
  const cache = new Map<string, { name: string; atMs: number }>();
  const warned = new Set<string>();
  const lookUp = async (user: string): Promise<string | null> => {
    const cached = cache.get(user);
    if (cached !== undefined && clock.now() - cached.atMs < NAME_TTL_MS) return cached.name;
    try {
      const { user: info } = await client.users.info({ user });
      const name = [info?.profile?.display_name, info?.real_name, info?.name].find(
        (candidate) => typeof candidate === "string" && candidate.trim() !== "",
      );
      if (name === undefined) return null;
      cache.set(user, { name, atMs: clock.now() });
      return name;
    } catch (error) {
      const code = slackErrorCode(error) ?? "request_failed";
      if (!warned.has(code)) {
        warned.add(code);
        logger.warn(
          { user, slackError: code, hint: slackErrorHint(code, { botName, needed: missingScope(error) }) },
          `could not look up a person's name (${code}); showing the member ID instead`,
        );
      }
      return null;
    }
  };
  return {
    async names(users) {
      const unique = [...new Set(users)];
      const found = await Promise.all(unique.map(async (user) => [user, await lookUp(user)] as const));
      return new Map(found.flatMap(([user, name]) => (name === null ? [] : [[user, name] as const])));
    },
  };
}
