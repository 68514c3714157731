import type { NamedProject } from "../../checks/queue-project.ts";
import type { QueueWant } from "../../domain/queue-request.ts";
import { type JoinQueueResult, joinQueue } from "../queue/queue-requests.ts";
import type { ClaimDeps } from "./claim-deps.ts";
import { claimPlaced, type PlacedClaimRequest, type PlacedClaimResult } from "./claim-placed.ts";

export type PlacedOrWaitResult =
  | { kind: "placed"; result: PlacedClaimResult }
  /** Not placeable now: in line with its memory floor and valley kept (see `queue-placement.ts`). */
  | { kind: "wait"; result: JoinQueueResult };

/** Results of {@link claimPlaced} that a `--wait` request waits out instead of being told. */
function waitsOut(result: PlacedClaimResult): boolean {
  if (result.kind === "short" || result.kind === "outside-valley") return true;
  return result.kind === "claim" && ["held", "short", "over-quota"].includes(result.result.kind);
}

/**
 * `/gpu claim <n> gpus>=<GiB> [--valley] --wait`: placed now when it can be (see {@link claimPlaced});
 * when too few GPUs with enough memory are free, or it is outside the valley, the request joins the
 * waiting list keeping its memory floor and tariff window, and a grant pass honours both.
 */
export function claimPlacedOrWait(
  deps: ClaimDeps,
  request: PlacedClaimRequest & { project?: NamedProject | null },
): PlacedOrWaitResult {
  const result = claimPlaced(deps, request);
  if (!waitsOut(result)) return { kind: "placed", result };
  const want: QueueWant = {
    kind: "count",
    count: request.count,
    model: null,
    ...(request.floorMiB > 0 ? { floorMiB: request.floorMiB } : {}),
    ...(request.valley ? { valley: true as const } : {}),
  };
  const wait = { actor: request.actor, want, durationMs: request.durationMs, note: request.note };
  const joined = joinQueue(
    deps,
    request.project === undefined ? wait : { ...wait, project: request.project },
  );
  return { kind: "wait", result: joined };
}
