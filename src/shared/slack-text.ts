/** The actor recorded for what the bot does by itself (automatic stops). */
export const BOT_ACTOR = "gpu-warden";

/** `<@U123>` for a Slack user (rendered as @name); the bot's own name for {@link BOT_ACTOR}. */
export function mention(user: string): string {
  return user === BOT_ACTOR ? BOT_ACTOR : `<@${user}>`;
}

/** Escapes `&`, `<` and `>` so text from commands or config shows as typed in Slack mrkdwn. */
export function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
