/** Why a claim ended: its holder released it, its time ran out, it sat idle, it was forced, or replaced. */
export type ClaimEndReason = "released" | "expired" | "idle" | "forced" | "replaced";

export interface Claim {
  id: number;
  host: string;
  /** `null` claims the whole host. */
  gpuIndex: number | null;
  user: string;
  fromMs: number;
  untilMs: number;
  note: string;
  releasedAtMs: number | null;
  releasedBy: string | null;
  endReason: ClaimEndReason | null;
  /** When the "ends soon" DM went out; an extension clears it. */
  remindedAtMs: number | null;
  /** When the latest "claimed but idle" DM went out. */
  nudgedAtMs: number | null;
  /** When the holder last said "Still using it": idle time counts from then. */
  stillUsingAtMs: number | null;
  /** The project its GPU-hours count for (`projects:`); `null` or absent: none (unattributed). */
  project?: string | null;
}

export type NewClaim = Pick<Claim, "host" | "gpuIndex" | "user" | "fromMs" | "untilMs" | "note" | "project">;

/** One "notify me when free": a user waiting for a GPU (or, `gpuIndex` null, a whole host). */
export interface ClaimWait {
  id: number;
  host: string;
  gpuIndex: number | null;
  user: string;
  createdAtMs: number;
}
