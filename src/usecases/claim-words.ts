import type { ClaimGroup } from "../checks/claim-groups.ts";
import type { GrantDevices } from "../checks/grant-devices.ts";
import type { Claim } from "../store/claim-store.ts";
import type { QueueRequest } from "../store/queue-store.ts";
import type { RenderedReply } from "./ports.ts";
import type { HomeModel } from "./read-home.ts";

/** What the claim DMs need besides the claim: the time now, the team's zone. */
export interface DmClock {
  nowMs: number;
  zone: string;
}

/** How a claim ended, for its holder. */
export type ClaimEnding =
  | { kind: "expired" }
  | { kind: "idle"; idleFromMs: number }
  | { kind: "forced"; actor: string; role: string };

/** Turns the claim use-cases' facts into Slack messages and the Home tab (the bot's views implement it). */
export interface ClaimWords {
  /** The holder's DM before the claim ends. */
  reminder(group: ClaimGroup, at: DmClock): RenderedReply;
  /** The holder's DM when the claimed GPUs sit idle (`releaseAtMs`: when they are released). */
  nudge(group: ClaimGroup, idleFromMs: number, releaseAtMs: number | null, at: DmClock): RenderedReply;
  /** The holder's DM when a claim ended without them. */
  ended(group: ClaimGroup, ending: ClaimEnding, endedAtMs: number, at: DmClock): RenderedReply;
  /** A waiter's DM: the GPUs they wait for are free. */
  free(host: string, gpus: readonly number[] | null, slashCommand: string): RenderedReply;
  /** A waiter's DM: the GPUs granted from the waiting list, to confirm by `confirmByMs`. */
  queueGrant(
    request: QueueRequest,
    claims: readonly Claim[],
    confirmByMs: number,
    at: DmClock,
    /** `CUDA_VISIBLE_DEVICES` of whole-host and MIG grants (see `checks/grant-devices.ts`). */
    devices?: readonly GrantDevices[],
  ): RenderedReply;
  /** A waiter's DM: the grant was not confirmed in time and passed to the next in line. */
  queueLapsed(request: QueueRequest, released: readonly Claim[], at: DmClock): RenderedReply;
  /** The App Home view of `model` (for `views.publish`). */
  home(model: HomeModel, slashCommand: string): unknown;
}
