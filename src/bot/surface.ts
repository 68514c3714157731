import { GPU_COMMAND } from "../shared/gpu-command.ts";
import { COMMANDS } from "./commands/command-table.ts";

/**
 * What the bot asks of Slack, declared once: the slash commands and bot events the listeners
 * register, and the scope each Web API method needs. `manifest.yml` must list exactly this (a test
 * compares them, and the registrations, and the methods the code calls).
 */

export { GPU_COMMAND };

export interface SlashCommandSurface {
  command: string;
  description: string;
  /** Shown by Slack after the command as the user types. */
  usageHint: string;
  /**
   * Slack sends people picked from its list as `<@U123|name>` (true), or as the plain `@name` that
   * no ID can be found for (false). The command text is read by `commandText`.
   */
  shouldEscape: boolean;
}

export const SLASH_COMMANDS: readonly SlashCommandSurface[] = [
  {
    command: GPU_COMMAND,
    description: "GPU fleet: status, claim and release GPUs, keep a host, stop an idle host, start it again",
    usageHint: COMMANDS.map((command) => command.usage).join(" | "),
    shouldEscape: true,
  },
];

/** Events API subscriptions (bot events) the listeners register. */
export const BOT_EVENTS: readonly string[] = ["app_home_opened"];

/** The Home tab needs a listener that publishes it. */
export const HOME_TAB_ENABLED = BOT_EVENTS.includes("app_home_opened");

/**
 * The bot scopes each Web API method needs (`null`: none). DMs are `chat.postMessage` to a user id,
 * which needs only `chat:write` (and the Messages tab). History is read only to find a post whose
 * answer a crash lost (the outbox's recovery): in the team channel (public or private) or a DM.
 */
export const METHOD_SCOPES: Readonly<Record<string, string | readonly string[] | null>> = {
  "chat.postMessage": "chat:write",
  "chat.update": "chat:write",
  "chat.postEphemeral": "chat:write",
  "chat.delete": "chat:write",
  "conversations.open": "im:write",
  "conversations.info": "channels:read",
  "conversations.history": ["channels:history", "groups:history", "im:history"],
  "conversations.replies": ["channels:history", "groups:history", "im:history"],
  "users.info": "users:read",
  "files.uploadV2": "files:write",
  "files.getUploadURLExternal": "files:write",
  "files.completeUploadExternal": "files:write",
  "reactions.add": "reactions:write",
  "views.publish": null,
  "views.open": null,
  "views.update": null,
  "auth.test": null,
};

/** The bot scopes for these methods, plus `commands` when there are slash commands; sorted. */
export function botScopes(methods: Iterable<string>, hasCommands = SLASH_COMMANDS.length > 0): string[] {
  const scopes = new Set<string>();
  for (const method of methods) {
    const scope = METHOD_SCOPES[method];
    if (scope === undefined) throw new Error(`no scope known for ${method}: add it to METHOD_SCOPES`);
    if (typeof scope === "string") scopes.add(scope);
    else if (scope !== null) for (const one of scope) scopes.add(one);
  }
  if (hasCommands) scopes.add("commands");
  return [...scopes].sort();
}
