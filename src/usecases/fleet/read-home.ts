import type { ClaimRules } from "../../checks/claim-due.ts";
import { type ClaimGroup, groupClaims } from "../../checks/claim-groups.ts";
import { type ClaimDeps, claimRulesOf } from "../claims/claim-deps.ts";
import { fleetGpusNow, type GpuNow, hostGpusNow } from "../claims/claim-seats.ts";
import { type HomeQueue, readHomeQueue } from "../queue/read-queue-eta.ts";
import { listReservations } from "../queue/reservations.ts";
import { type HostSummary, readFleetStatus } from "./read-fleet-status.ts";

/** One of the user's claims on the Home tab, with its GPUs' utilisation now. */
export interface HomeClaim {
  group: ClaimGroup;
  gpus: GpuNow[];
}

/** One host on the Home tab's fleet board. */
export interface HomeHost {
  summary: HostSummary;
  /** Every GPU with its utilisation now (`null`: no fresh reading). */
  gpus: GpuNow[];
}

/** Everything the App Home shows one user. */
export interface HomeModel {
  user: string;
  nowMs: number;
  zone: string;
  /** A line at the top: what the user's last click on the Home tab did. */
  notice: string | null;
  mine: HomeClaim[];
  warden: string | null;
  hosts: HomeHost[];
  rules: ClaimRules;
  /** The user's reservations (theirs or their project's) to come, with the window now or next. */
  reservations?: ReturnType<typeof listReservations>;
  /** The user's place in the waiting list and each GPU model's line, with estimated times. */
  queue?: HomeQueue;
  /** Hosts the bot stopped that have a `start` action: the board offers *Start* for them. */
  startable?: string[];
}

/** The App Home of `user`: their claims, the current cost warden, the fleet board. Reads only. */
export function readHome(deps: ClaimDeps, user: string, notice: string | null = null): HomeModel {
  const nowMs = deps.clock.now();
  const gpusByHost = fleetGpusNow(deps, nowMs);
  const fleet = readFleetStatus(deps);
  const mine = groupClaims(deps.state.claims.activeOf(user, nowMs)).map((group) => ({
    group,
    gpus: (gpusByHost.get(group.host) ?? []).filter(
      (gpu) => group.gpus === null || group.gpus.includes(gpu.index),
    ),
  }));
  return {
    user,
    nowMs,
    zone: fleet.timezone,
    notice,
    mine,
    warden: deps.warden.current(nowMs),
    hosts: fleet.hosts.map((summary) => ({ summary, gpus: gpusByHost.get(summary.host) ?? [] })),
    startable: fleet.hosts
      .filter((host) => host.stoppedBy != null && deps.config.hosts[host.host]?.start !== undefined)
      .map((host) => host.host),
    rules: claimRulesOf(deps.config),
    reservations: listReservations(deps, user),
    queue: readHomeQueue(deps, user, nowMs),
  };
}

/** `user`'s claims in force, grouped, with their GPUs' utilisation now (`/gpu mine`, bare `/gpu`). */
export function readMyClaims(deps: ClaimDeps, user: string): HomeClaim[] {
  const nowMs = deps.clock.now();
  const groups = groupClaims(deps.state.claims.activeOf(user, nowMs));
  if (groups.length === 0) return [];
  const gpusByHost = new Map(
    [...new Set(groups.map((group) => group.host))].map((host) => [host, hostGpusNow(deps, host, nowMs)]),
  );
  return groups.map((group) => ({
    group,
    gpus: (gpusByHost.get(group.host) ?? []).filter(
      (gpu) => group.gpus === null || group.gpus.includes(gpu.index),
    ),
  }));
}
