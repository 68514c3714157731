import type { RenderedMessage } from "../ports.ts";

/** The channel's one message when more than `alerts.digest_over` hosts went idle in one poll. */
export interface StormDigestView {
  count: number;
  /** What the idle hosts cost a day together; `null` when none has a cost. */
  costPerDay: number | null;
  /** The clusters of the idle hosts (`b` of `b/node-17`), sorted; empty when hosts carry no cluster. */
  clusters: string[];
}

/** An owner's one DM in a storm: their idle hosts and a *Stop all mine* button. */
export interface StormOwnerView {
  reader: string;
  /** The digest's id (the button's value: the hosts are read back from the store). */
  digestId: number;
  hosts: string[];
  costPerDay: number | null;
  channel: string;
}

/** What *Stop all mine* did, host by host (each stop authorised and re-checked on its own). */
export interface StopAllMineView {
  /** Being stopped: each one's progress and outcome are in its alert's thread. */
  stopping: string[];
  /** Not stopped: the re-check found it busy, in use or unknown, or it is not the clicker's. */
  notStopped: string[];
  /** Already over (busy again, stopped, kept) before the click. */
  over: string[];
}

/** The storm digest's word port (the bot's views implement it). */
export interface StormWords {
  digest(view: StormDigestView): RenderedMessage;
  ownerDm(view: StormOwnerView): RenderedMessage;
}
