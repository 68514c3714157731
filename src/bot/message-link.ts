import type { webApi } from "@slack/bolt";
import type { Logger } from "../shared/logger.ts";

/**
 * A message's permalink from the workspace URL (`auth.test`'s `url`, e.g. `https://acme.slack.com/`):
 * `https://acme.slack.com/archives/C0123/p1700000000000100`, the form `chat.getPermalink` returns
 * for a top-level message, built without a call per message.
 */
export function messagePermalink(workspaceUrl: string, channel: string, ts: string): string {
  return `${workspaceUrl.replace(/\/+$/, "")}/archives/${channel}/p${ts.replace(".", "")}`;
}

/** The workspace URL from `auth.test`; `null` (with a warning) when Slack does not say. */
export async function workspaceUrlOf(client: webApi.WebClient, logger: Logger): Promise<string | null> {
  const answer = await client.auth.test();
  if (typeof answer.url === "string" && /^https:\/\//.test(answer.url)) return answer.url;
  logger.warn({ url: answer.url }, "auth.test gave no workspace URL: alerts will not link to earlier ones");
  return null;
}
