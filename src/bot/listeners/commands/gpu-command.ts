import type { Middleware, SlackCommandMiddlewareArgs } from "@slack/bolt";
import type { BotDeps } from "../../bot-deps.ts";
import { parseCommand } from "../../parse-command.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { errorReply, type Reply } from "../../views/reply-message.ts";
import { gpuHelp } from "./gpu-help.ts";
import { gpuKeep } from "./gpu-keep.ts";
import { gpuStatus } from "./gpu-status.ts";
import { gpuStop } from "./gpu-stop.ts";

/**
 * `/gpu …`: every answer is computed at once (store reads and writes, no Slack calls) and sent as
 * the ack itself, ephemeral, well within Slack's 3 s.
 */
export function gpuCommand(deps: BotDeps): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack }) => {
    let reply: Reply;
    try {
      reply = answer(deps, command.user_id, command.text);
    } catch (error) {
      await ack({
        response_type: "ephemeral",
        text: "Something went wrong on the bot's side; it is logged.",
      });
      throw error;
    }
    await ack({ response_type: "ephemeral", ...reply });
  };
}

function answer(deps: BotDeps, user: string, text: string): Reply {
  const parsed = parseCommand(text);
  switch (parsed.kind) {
    case "help":
      return gpuHelp(deps, user, parsed.bare);
    case "status":
      return gpuStatus(deps, parsed.host);
    case "keep":
      return gpuKeep(deps, user, parsed.host, parsed.span);
    case "stop":
      return gpuStop(deps, user, parsed.host);
    case "invalid":
      return errorReply(parsed.problem, parsed.command, GPU_COMMAND);
    default:
      return parsed satisfies never;
  }
}
