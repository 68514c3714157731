import type { Translator } from "../../../messages/translator.ts";
import { MINUTE_MS } from "../../../shared/clock.ts";
import { knownHosts } from "../../../usecases/fleet/known-hosts.ts";
import { readFleetStatus, readHostDetail } from "../../../usecases/fleet/read-fleet-status.ts";
import { unknownHost } from "../../../usecases/power/action-text.ts";
import { reservedHosts } from "../../../usecases/queue/reservations.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { commandErrorReply } from "../../views/command-error.ts";
import { withReservationStatus } from "../../views/queue/reservation-lines.ts";
import type { Reply } from "../../views/reply-message.ts";
import { renderFleetStatus } from "../../views/status/status-fleet.ts";
import { renderHostStatus } from "../../views/status/status-host.ts";
import { unknownHostWords } from "../../views/unknown-host.ts";
import { withReclaimStatus } from "../../views/warden/reclaim-status.ts";
import { withUsualFreeHosts } from "./eta-replies.ts";

/** `/gpu status [host]`: the fleet board, or one host in detail, in `tr`'s language. */
export function gpuStatus(
  deps: BotDeps,
  tr: Translator,
  host: string | null,
  cluster: string | null = null,
): Reply {
  const timezone = deps.config.team.timezone;
  if (host === null && cluster !== null) return renderFleetBoard(deps, tr, cluster);
  if (host === null) return fleetBoard(deps, tr);
  const detail = readHostDetail(deps, host);
  if (detail === null) {
    return commandErrorReply(
      tr,
      unknownHostWords(tr, unknownHost(host, knownHosts(deps))),
      "status",
      GPU_COMMAND,
    );
  }
  const entry = deps.reclaims.open(host) ?? deps.reclaims.lastEnded(host);
  const lend = deps.reclaims.lendOf(host);
  const reply = withReclaimStatus(tr, renderHostStatus(tr, detail, deps.clock.now()), {
    cases: entry === null ? [] : [entry],
    lends: lend === null ? [] : [lend],
    timezone,
  });
  return withReservationStatus(tr, reply, reservedHosts(deps, host), deps.clock.now());
}

/** A rendered fleet board and what it was rendered from. */
interface Board {
  minute: number;
  changeCount: number;
  /** Per known host: its name, latest observation and idle state (compared by identity). */
  fleet: unknown[];
  reply: Reply;
}

const boards = new WeakMap<BotDeps, Map<Translator, Board>>();

/**
 * The fleet board, rendered at most once per minute and state: it shows times and durations to the
 * minute, so everyone asking within a minute gets the same board until a database write (a claim, a
 * keep, an alert, a poll…) or a new reading from the fleet. A host going stale shows within that
 * minute. Rendering costs about as much as Slack's whole request handling, and a busy channel asks
 * for it in bursts.
 */
function fleetBoard(deps: BotDeps, tr: Translator): Reply {
  const nowMs = deps.clock.now();
  const minute = Math.floor(nowMs / MINUTE_MS);
  const changeCount = deps.state.changeCount();
  const fleet = deps.fleet.hosts().flatMap((host) => [host, deps.fleet.latest(host), deps.fleet.state(host)]);
  let byReader = boards.get(deps);
  if (byReader === undefined) {
    byReader = new Map();
    boards.set(deps, byReader);
  }
  const cached = byReader.get(tr);
  if (
    cached !== undefined &&
    cached.minute === minute &&
    cached.changeCount === changeCount &&
    sameItems(cached.fleet, fleet)
  ) {
    return cached.reply;
  }
  const reply = renderFleetBoard(deps, tr);
  byReader.set(tr, { minute, changeCount, fleet, reply });
  return reply;
}

/** The fleet board rendered now for the reader `tr` (default: the channel), with the hosts being reclaimed or lent. */
export function renderFleetBoard(
  deps: BotDeps,
  tr: Translator = deps.readers.channel,
  cluster: string | null = null,
): Reply {
  const timezone = deps.config.team.timezone;
  const lends = [...deps.reclaims.allLends().values()];
  const status = readFleetStatus(deps, cluster);
  const board = renderFleetStatus(tr, status, GPU_COMMAND);
  const reply = withReclaimStatus(tr, board, { cases: deps.reclaims.allOpen(), lends, timezone });
  const reserved = withReservationStatus(tr, reply, reservedHosts(deps), deps.clock.now());
  const busy = status.hosts.filter((entry) => entry.status === "busy").map((entry) => entry.host);
  return withUsualFreeHosts(deps, tr, reserved, busy);
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
