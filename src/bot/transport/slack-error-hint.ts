import bolt from "@slack/bolt";

const { WebAPIPlatformError } = bolt.webApi;

/** Who to name in hints: the bot's display name in the workspace. */
export interface HintContext {
  botName: string;
  /** The channel the failed call was for, when known. */
  channel?: string | undefined;
  /** The scope Slack said is missing (`missing_scope` carries it as `needed`). */
  needed?: string | undefined;
}

/** The platform error code (`not_in_channel`, `invalid_auth`…) of a Web API error, if it is one. */
export function slackErrorCode(error: unknown): string | undefined {
  if (error instanceof WebAPIPlatformError) return String(error.data.error);
  if (typeof error !== "object" || error === null) return undefined;
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === "string" ? data.error : undefined;
}

/** The scope Slack reported as missing, from a `missing_scope` error. */
export function missingScope(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const needed = (error as { data?: { needed?: unknown } }).data?.needed;
  return typeof needed === "string" ? needed : undefined;
}

/**
 * What an operator should do about a Slack platform error; undefined for errors with no fix on
 * their side (rate limits, outages).
 */
export function slackErrorHint(code: string, context: HintContext): string | undefined {
  const where = context.channel === undefined ? "the channel" : context.channel;
  switch (code) {
    case "not_in_channel":
      return `invite the bot: type /invite @${context.botName} in ${where}`;
    case "channel_not_found":
      return `Slack cannot find ${where}: check slack.channel in the config (a channel ID such as C0123ABCD is safest) and, for a private channel, invite @${context.botName} first`;
    case "is_archived":
      return `${where} is archived: unarchive it or set slack.channel to another channel`;
    case "missing_scope":
      return `the app lacks the scope ${context.needed ?? "(see the error)"}: add it under oauth_config.scopes.bot in manifest.yml (or OAuth & Permissions), then reinstall the app to the workspace`;
    case "invalid_auth":
    case "not_authed":
    case "token_revoked":
    case "token_expired":
    case "account_inactive":
      return "SLACK_BOT_TOKEN is wrong or revoked: copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions of the installed app";
    case "not_allowed_token_type":
      return "SLACK_BOT_TOKEN must be the bot token (xoxb-…), SLACK_APP_TOKEN the app-level token (xapp-…)";
    case "messages_tab_disabled":
      return "enable the Messages tab (App Home → Show Tabs, or features.app_home.messages_tab_enabled in manifest.yml) so the bot can DM users";
    case "not_enabled":
      return "enable the Home tab (App Home → Show Tabs, or features.app_home.home_tab_enabled in manifest.yml)";
    case "user_not_in_channel":
      return `the user is not a member of ${where}`;
    case "invalid_blocks":
    case "invalid_blocks_format":
    case "msg_too_long":
    case "msg_blocks_too_long":
    case "too_many_attachments":
    case "invalid_arguments":
      return "Slack refused the message's content: this is a gpu-warden bug, please report it with this log line";
    default:
      return undefined;
  }
}
