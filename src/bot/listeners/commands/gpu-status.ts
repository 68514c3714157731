import { unknownHostText } from "../../../usecases/action-text.ts";
import { readFleetStatus, readHostDetail } from "../../../usecases/read-fleet-status.ts";
import { knownHosts } from "../../../usecases/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { errorReply, type Reply } from "../../views/reply-message.ts";
import { renderFleetStatus } from "../../views/status-fleet.ts";
import { renderHostStatus } from "../../views/status-host.ts";

/** `/gpu status [host]`: the fleet board, or one host in detail. */
export function gpuStatus(deps: BotDeps, host: string | null): Reply {
  if (host === null) return renderFleetStatus(readFleetStatus(deps), GPU_COMMAND);
  const detail = readHostDetail(deps, host);
  if (detail === null) return errorReply(unknownHostText(host, knownHosts(deps)), "status", GPU_COMMAND);
  return renderHostStatus(detail, deps.clock.now(), deps.config.team.timezone);
}
