import type { Middleware, SlackCommandMiddlewareArgs } from "@slack/bolt";
import type { GpuSlots } from "../../../checks/claim-target.ts";
import { canonicalHost } from "../../../usecases/canonical-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { commandText } from "../../command-text.ts";
import { type ParsedCommand, parseCommand } from "../../parse-command.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { errorReply, type Reply } from "../../views/reply-message.ts";
import { claimCommand } from "./claim-command.ts";
import { extendCommand } from "./extend-command.ts";
import { gpuHelp } from "./gpu-help.ts";
import { gpuKeep } from "./gpu-keep.ts";
import { gpuReport, type ReportUpload, uploadReportCsv } from "./gpu-report.ts";
import { gpuStatus } from "./gpu-status.ts";
import { gpuStop } from "./gpu-stop.ts";
import { gpuWarden } from "./gpu-warden.ts";
import { mineCommand } from "./mine-command.ts";
import { queueCommand } from "./queue-command.ts";
import { releaseCommand } from "./release-command.ts";

/**
 * `/gpu …`: every answer is computed at once (store reads and writes, no Slack calls) and sent as
 * the ack itself, ephemeral, well within Slack's 3 s. `/gpu report` then uploads its CSV.
 */
export function gpuCommand(deps: BotDeps): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack, client, respond }) => {
    let reply: Reply;
    let upload: ReportUpload | null = null;
    try {
      const text = commandText(command.text);
      const parsed = parseCommand(text);
      if (parsed.kind === "report") ({ reply, upload } = gpuReport(deps, command.user_id, parsed.days));
      else reply = answerCommand(deps, command.user_id, text);
    } catch (error) {
      await ack({
        response_type: "ephemeral",
        text: "Something went wrong on the bot's side; it is logged.",
      });
      throw error;
    }
    await ack({ response_type: "ephemeral", ...reply });
    if (upload === null) return;
    const failure = await uploadReportCsv(deps, client, upload);
    if (failure !== null) await respond({ response_type: "ephemeral", text: failure });
  };
}

/** The command with the host named as the bot knows it (`GPU-A` → `gpu-a`). */
function withKnownHost(deps: BotDeps, parsed: ParsedCommand): ParsedCommand {
  const host = (name: string) => canonicalHost(deps, name);
  const slots = (s: GpuSlots): GpuSlots => ({ ...s, host: host(s.host) });
  switch (parsed.kind) {
    case "status":
      return parsed.host === null ? parsed : { ...parsed, host: host(parsed.host) };
    case "keep":
    case "stop":
      return { ...parsed, host: host(parsed.host) };
    case "claim":
      return parsed.target.kind === "slots"
        ? { ...parsed, target: { kind: "slots", slots: slots(parsed.target.slots) } }
        : parsed;
    case "release":
      return parsed.target.kind === "slots"
        ? { ...parsed, target: { kind: "slots", slots: slots(parsed.target.slots) } }
        : parsed;
    case "extend":
      return { ...parsed, slots: slots(parsed.slots) };
    default:
      return parsed;
  }
}

/** The reply to `/gpu <text>` from `user` (`text` as typed: see {@link commandText}): parse, one use-case, render. Synchronous. */
export function answerCommand(deps: BotDeps, user: string, text: string): Reply {
  const parsed = withKnownHost(deps, parseCommand(text));
  switch (parsed.kind) {
    case "help":
      return gpuHelp(deps, user, parsed.bare);
    case "status":
      return gpuStatus(deps, parsed.host, user);
    case "keep":
      return gpuKeep(deps, user, parsed.host, parsed.span);
    case "stop":
      return gpuStop(deps, user, parsed.host);
    case "claim":
      return claimCommand(deps, user, parsed);
    case "release":
      return releaseCommand(deps, user, parsed.target);
    case "extend":
      return extendCommand(deps, user, parsed.slots, parsed.durationMs);
    case "mine":
      return mineCommand(deps, user);
    case "queue":
      return queueCommand(deps, user, parsed.cancel);
    case "report":
      return gpuReport(deps, user, parsed.days).reply;
    case "warden":
      return gpuWarden(deps, user, parsed.action);
    case "invalid":
      return errorReply(parsed.problem, parsed.command, GPU_COMMAND);
    default:
      return parsed satisfies never;
  }
}
