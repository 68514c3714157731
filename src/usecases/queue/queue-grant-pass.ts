import { matchModels } from "../../checks/claim-model.ts";
import type { GpuSeat } from "../../checks/claim-pick.ts";
import { grantDevices } from "../../checks/grant-devices.ts";
import { gpusHeldBy, quotaExceeded } from "../../checks/project-quota.ts";
import { fitRequest } from "../../checks/queue-fit.ts";
import type { Claim } from "../../domain/claim.ts";
import type { QueueRequest } from "../../domain/queue-request.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import { migParts } from "../../shared/gpu-slot.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { fleetGpusNow } from "../claims/claim-seats.ts";
import { publishHome } from "../fleet/publish-home.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { startForClaim } from "../power/start-for-claim.ts";
import { queueSeatsFor } from "./queue-placement.ts";
import { grantReservations } from "./reservations.ts";

/** One request granted by a pass: the claims it got and until when it must be confirmed. */
export interface QueueGrantMade {
  request: QueueRequest;
  claims: Claim[];
  confirmByMs: number;
}

/**
 * One grant pass and what follows it: see {@link grantPass}; then the hosts' alerts and the
 * granted people's Home tabs are refreshed.
 */
export function grantWaiting(deps: ClaimDeps, nowMs: number = deps.clock.now()): QueueGrantMade[] {
  const made = grantPass(deps, nowMs);
  afterGrants(deps, made);
  return made;
}

/**
 * One grant pass: walks the waiting list by priority, then first come, and gives each request that fits
 * the free, idle GPUs it asks for (see {@link fitRequest}), as real claims made in one IMMEDIATE
 * transaction with their grant rows, the audit entries and the grant DMs (host, GPUs,
 * `CUDA_VISIBLE_DEVICES`, until when, *Confirm* / *Extend* / *Release*). The claims' unique index
 * makes granting a GPU twice impossible, even from passes racing in other processes.
 */
export function grantPass(deps: ClaimDeps, nowMs: number): QueueGrantMade[] {
  const { state } = deps;
  const confirmMs = deps.config.queue.confirm_minutes * MINUTE_MS;
  return state.transaction((): QueueGrantMade[] => {
    const waiting = state.queue.waiting();
    if (waiting.length === 0) return [];
    const seats = [...fleetGpusNow(deps, nowMs).values()].flat();
    const placed = queueSeatsFor(deps, nowMs);
    const held = state.claims.held();
    const heldKeys = new Set(held.map((claim) => `${claim.host}:${claim.gpuIndex ?? "*"}`));
    let freeIdle = seats.filter(
      (seat) =>
        seat.state === "idle" &&
        !heldKeys.has(`${seat.host}:*`) &&
        !heldKeys.has(`${seat.host}:${seat.index}`),
    ).length;
    const reserved = grantReservations(deps, nowMs);
    const fleetModels = [...new Set(seats.flatMap((seat) => (seat.model === null ? [] : [seat.model])))];
    const matched = new Map<string, string[]>();
    const grants: QueueGrantMade[] = [];
    for (const request of waiting) {
      if (freeIdle === 0) break;
      const { want } = request;
      let models: string[] | null = null;
      if (want.kind === "count" && want.model !== null) {
        models = matched.get(want.model) ?? matchModels(want.model, fleetModels);
        matched.set(want.model, models);
      }
      const allowed = placed(want, seats);
      if (allowed === null) continue;
      const slots = fitRequest(want, reserved.seatsFor(request.user, allowed.seats), held, models);
      if (slots === null) continue;
      const limit = reserved.limitFor(request.user, slots, nowMs + request.durationMs);
      if (limit.kind === "refused") continue;
      const untilMs = Math.min(limit.untilMs, allowed.endMs ?? limit.untilMs);
      if (overProjectQuota(deps, request.project, slots, seats, held)) continue;
      const claims = slots.map((slot) =>
        state.claims.add({
          host: slot.host,
          gpuIndex: slot.gpuIndex,
          user: request.user,
          fromMs: nowMs,
          untilMs,
          note: request.note,
          project: request.project,
        }),
      );
      const confirmByMs = nowMs + confirmMs;
      if (!state.queue.grant(request.id, claims, nowMs, confirmByMs)) {
        throw new Error(`queue request ${request.id} stopped waiting during the grant pass`);
      }
      held.push(...claims);
      freeIdle -= slots.some((slot) => slot.gpuIndex === null)
        ? seats.filter((seat) => seat.host === slots[0]?.host).length
        : slots.length;
      record(deps, request, claims, confirmByMs, nowMs);
      grants.push({ request, claims, confirmByMs });
    }
    return grants;
  });
}

/** Whether granting `slots` would take `project` past its `max_gpus`. */
function overProjectQuota(
  deps: ClaimDeps,
  project: string | null,
  slots: readonly { host: string; gpuIndex: number | null }[],
  seats: readonly GpuSeat[],
  held: readonly Claim[],
): boolean {
  if (project === null) return false;
  const gpusOf = (host: string) => seats.filter((seat) => seat.host === host).length;
  const asked = slots.reduce((sum, slot) => sum + (slot.gpuIndex === null ? gpusOf(slot.host) : 1), 0);
  const maxGpus = deps.config.projects[project]?.max_gpus;
  return quotaExceeded(project, maxGpus, gpusHeldBy(held, project, gpusOf), asked) !== null;
}

/** The hosts' open alerts (they name the claimants) and the granted people's Home tabs. */
export function afterGrants(deps: ClaimDeps, made: readonly QueueGrantMade[]): void {
  for (const host of new Set(made.flatMap((grant) => grant.claims.map((claim) => claim.host)))) {
    deps.alerts.refresh(host);
  }
  for (const grant of made) {
    for (const host of new Set(grant.claims.map((claim) => claim.host))) {
      startForClaim(deps, host, grant.request.user, "grant");
    }
  }
  for (const user of new Set(made.map((grant) => grant.request.user))) publishHome(deps, user);
}

function record(
  deps: ClaimDeps,
  request: QueueRequest,
  claims: readonly Claim[],
  confirmByMs: number,
  nowMs: number,
): void {
  const hosts = [...new Set(claims.map((claim) => claim.host))];
  deps.state.audit.record({
    atMs: nowMs,
    actor: BOT_ACTOR,
    action: "queue-grant",
    host: hosts.length === 1 ? (hosts[0] ?? null) : null,
    detail: {
      requestId: request.id,
      holder: request.user,
      claimIds: claims.map((claim) => claim.id),
      slots: claims.map((claim) => ({ host: claim.host, gpu: claim.gpuIndex })),
      waitedMs: nowMs - request.createdAtMs,
      confirmByMs,
    },
  });
  // NOTE: only whole-host and MIG grants need the stored GPUs; reading them per grant would cost a
  // large fleet's pass several milliseconds.
  const special = claims.some((claim) => claim.gpuIndex === null || migParts(claim.gpuIndex) !== null);
  const known = special ? new Map(deps.metrics.hosts().map((host) => [host.name, host.gpus])) : new Map();
  const dm = deps.claimWords.queueGrant(
    request,
    claims,
    confirmByMs,
    { nowMs, zone: deps.config.team.timezone },
    grantDevices(claims, known),
  );
  deps.notifier.send("chat.postMessage", { channel: request.user, text: dm.text, blocks: dm.blocks });
  deps.logger.info(
    { holder: request.user, request: request.id, claims: claims.map((claim) => claim.id) },
    "queue grant",
  );
}
