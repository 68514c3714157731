import type { Middleware, SlackCommandMiddlewareArgs } from "@slack/bolt";
import type { GpuSlots } from "../../../checks/claim-target.ts";
import type { Translator } from "../../../messages/translator.ts";
import { canonicalHost } from "../../../usecases/fleet/canonical-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { commandText } from "../../commands/command-text.ts";
import { type ParsedCommand, parseCommand } from "../../commands/parse-command.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { commandErrorReply } from "../../views/command-error.ts";
import { commandProblemText } from "../../views/command-problem-text.ts";
import { type Reply, textReply } from "../../views/reply-message.ts";
import { claimCommand } from "./claim-command.ts";
import { extendCommand } from "./extend-command.ts";
import { gpuHeatmap } from "./gpu-heatmap.ts";
import { gpuHelp } from "./gpu-help.ts";
import { gpuKeep } from "./gpu-keep.ts";
import { gpuReport, type ReportUpload, uploadReportCsv } from "./gpu-report.ts";
import { gpuProjectReport } from "./gpu-report-project.ts";
import { gpuRequest } from "./gpu-request.ts";
import { gpuStart } from "./gpu-start.ts";
import { gpuStatus } from "./gpu-status.ts";
import { gpuStop } from "./gpu-stop.ts";
import { gpuWarden } from "./gpu-warden.ts";
import { mineCommand } from "./mine-command.ts";
import { queueCommand } from "./queue-command.ts";
import { releaseCommand } from "./release-command.ts";
import { reserveCommand } from "./reserve-command.ts";

/** How long a command waits for its asker's Slack locale before answering in the team's language. */
const LOCALE_WAIT_MS = 1_500;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * `/gpu …`: every answer is computed at once (store reads and writes, no Slack calls) and sent as
 * the ack itself, ephemeral, well within Slack's 3 s. `/gpu report` then uploads its CSV,
 * `/gpu heatmap` its PNG.
 */
export function gpuCommand(deps: BotDeps): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack, client, respond }) => {
    let reply: Reply;
    let upload: ReportUpload | null = null;
    // NOTE: looked up first (cached a day) so that answerCommand finds the asker's language in
    // `readers.person`; a slow users.info is not waited for past LOCALE_WAIT_MS, Slack wants the ack in 3 s.
    await Promise.race([deps.readers.lookUp(command.user_id), pause(LOCALE_WAIT_MS)]);
    const tr = deps.readers.person(command.user_id);
    const text = commandText(command.text);
    const parsed = parseCommand(text);
    if (parsed.kind === "request") {
      await gpuRequest(deps, tr, command, parsed.project, { ack, client });
      return;
    }
    try {
      if (parsed.kind === "report" && parsed.project !== undefined) {
        ({ reply, upload } = gpuProjectReport(deps, tr, command.user_id, parsed.project.month));
      } else if (parsed.kind === "report")
        ({ reply, upload } = gpuReport(deps, tr, command.user_id, parsed.days));
      else if (parsed.kind === "heatmap")
        ({ reply, upload } = gpuHeatmap(deps, tr, command.user_id, parsed.project));
      else reply = answerCommand(deps, command.user_id, text, tr);
    } catch (error) {
      await ack({ response_type: "ephemeral", text: tr.t("command.failed") });
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
    case "start":
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

/**
 * The reply to `/gpu <text>` from `user` (`text` as typed: see {@link commandText}): parse, one
 * use-case, render, in `tr`'s language (by default what is known now of the asker's). Synchronous.
 */
export function answerCommand(
  deps: BotDeps,
  user: string,
  text: string,
  tr: Translator = deps.readers.person(user),
): Reply {
  const parsed = withKnownHost(deps, parseCommand(text));
  switch (parsed.kind) {
    case "help":
      return gpuHelp(deps, tr, user, parsed.bare);
    case "status":
      return gpuStatus(deps, tr, parsed.host, parsed.cluster ?? null);
    case "keep":
      return gpuKeep(deps, tr, user, parsed.host, parsed.span);
    case "stop":
      return gpuStop(deps, tr, user, parsed.host);
    case "start":
      return gpuStart(deps, tr, user, parsed.host);
    case "claim":
      return claimCommand(deps, tr, user, parsed);
    case "release":
      return releaseCommand(deps, tr, user, parsed.target);
    case "extend":
      return extendCommand(deps, tr, user, parsed.slots, parsed.durationMs);
    case "mine":
      return mineCommand(deps, tr, user);
    case "queue":
      return queueCommand(deps, tr, user, parsed.cancel);
    case "reserve":
      return reserveCommand(deps, tr, user, parsed.action);
    case "report":
      if (parsed.project !== undefined) return gpuProjectReport(deps, tr, user, parsed.project.month).reply;
      return gpuReport(deps, tr, user, parsed.days).reply;
    case "heatmap":
      return gpuHeatmap(deps, tr, user, parsed.project).reply;
    case "warden":
      return gpuWarden(deps, tr, user, parsed.action);
    case "request":
      return textReply(tr.t("procurement.command.slackOnly"));
    case "invalid":
      return commandErrorReply(tr, commandProblemText(tr, parsed.problem), parsed.command, GPU_COMMAND);
    default:
      return parsed satisfies never;
  }
}
