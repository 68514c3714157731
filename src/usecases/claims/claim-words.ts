import type { ClaimGroup } from "../../checks/claim-groups.ts";
import type { GrantDevices } from "../../checks/grant-devices.ts";
import type { Claim } from "../../domain/claim.ts";
import type { QueueRequest } from "../../domain/queue-request.ts";
import type { HomeModel } from "../fleet/read-home.ts";
import type { RenderedReply } from "../ports.ts";
import type { PreemptAsk } from "../queue/queue-preempt.ts";

/** What the claim DMs need besides the claim: the time now, the team's zone. */
export interface DmClock {
  nowMs: number;
  zone: string;
}

/** Who released someone else's claim: the cost warden, an admin, or (should rules change) someone else. */
export type ForcerRole = "warden" | "admin" | "other";

/** How a claim ended, for its holder. */
export type ClaimEnding =
  | { kind: "expired" }
  | { kind: "idle"; idleFromMs: number }
  | { kind: "forced"; actor: string; role: ForcerRole };

/**
 * Turns the claim use-cases' facts into Slack messages and the Home tab (the bot's views implement
 * it): DMs and the Home tab in their reader's language, thread posts in the channel's.
 */
export interface ClaimWords {
  /** The holder's DM before the claim ends. */
  reminder(group: ClaimGroup, at: DmClock): RenderedReply;
  /** The holder's DM when the claimed GPUs sit idle (`releaseAtMs`: when they are released). */
  nudge(group: ClaimGroup, idleFromMs: number, releaseAtMs: number | null, at: DmClock): RenderedReply;
  /** The holder's DM when a claim ended without them. */
  ended(group: ClaimGroup, ending: ClaimEnding, endedAtMs: number, at: DmClock): RenderedReply;
  /** `user`'s DM: the GPUs they wait for are free. */
  free(user: string, host: string, gpus: readonly number[] | null): RenderedReply;
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
  /** A holder's DM: make room for a waiting request of higher priority (*Release now* / *I need 30 more minutes*). */
  preemptAsk(ask: PreemptAsk, at: DmClock): RenderedReply;
  /** A waiter's DM: the holders asked to make room, and by when their claims are released. */
  preemptWaiting(request: QueueRequest, asks: readonly PreemptAsk[], at: DmClock): RenderedReply;
  /** A holder's DM: the request that asked for room was served otherwise or left; the claim stays theirs. */
  preemptVoid(request: QueueRequest, kept: readonly Claim[], at: DmClock): RenderedReply;
  /** A holder's DM: the claim was released to make room (processes untouched). */
  preemptReleased(request: QueueRequest, released: readonly Claim[], at: DmClock): RenderedReply;
  /** The App Home view of `model` (for `views.publish`). */
  home(model: HomeModel, slashCommand: string): unknown;
  /** The line in a host's alert thread when its GPUs are claimed. */
  claimedInThread(group: ClaimGroup, nowMs: number): string;
}
