/** An ask: open, released by the bot when due, ended before (the holder released it), or void (the request stopped waiting). */
export type PreemptState = "asked" | "released" | "ended" | "void";

/** One running claim asked to make room for a waiting request of higher priority. */
export interface Preempt {
  id: number;
  requestId: number;
  claimId: number;
  holder: string;
  askedAtMs: number;
  /** When the bot releases the claim, unless it ended before. */
  releaseAtMs: number;
  /** Whether the holder has taken their one extra grace (*I need 30 more minutes*). */
  deferred: boolean;
  state: PreemptState;
  endedAtMs: number | null;
}
