import { unknownHostText } from "../../../usecases/action-text.ts";
import { readFleetStatus, readHostDetail } from "../../../usecases/read-fleet-status.ts";
import { knownHosts } from "../../../usecases/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { withReclaimStatus } from "../../views/reclaim-status.ts";
import { errorReply, type Reply } from "../../views/reply-message.ts";
import { renderFleetStatus } from "../../views/status-fleet.ts";
import { renderHostStatus } from "../../views/status-host.ts";

/** `/gpu status [host]`: the fleet board, or one host in detail. */
export function gpuStatus(deps: BotDeps, host: string | null): Reply {
  const timezone = deps.config.team.timezone;
  if (host === null) {
    const lends = [...deps.reclaims.allLends().values()];
    const fleet = renderFleetStatus(readFleetStatus(deps), GPU_COMMAND);
    return withReclaimStatus(fleet, { cases: deps.reclaims.allOpen(), lends, timezone });
  }
  const detail = readHostDetail(deps, host);
  if (detail === null) return errorReply(unknownHostText(host, knownHosts(deps)), "status", GPU_COMMAND);
  const entry = deps.reclaims.open(host) ?? deps.reclaims.lastEnded(host);
  const lend = deps.reclaims.lendOf(host);
  return withReclaimStatus(renderHostStatus(detail, deps.clock.now(), timezone), {
    cases: entry === null ? [] : [entry],
    lends: lend === null ? [] : [lend],
    timezone,
  });
}
