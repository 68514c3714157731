/** Where a request stands: in line, granted and awaiting *Confirm*, confirmed, or ended without a claim. */
export type QueueState = "waiting" | "granted" | "confirmed" | "lapsed" | "cancelled";

/** What a request waits for: some GPUs of a host (`gpus` null: the whole host), or any `count` GPUs (of a model). */
export type QueueWant =
  | { kind: "slots"; host: string; gpus: readonly number[] | null }
  | { kind: "count"; count: number; model: string | null };

export interface QueueRequest {
  id: number;
  user: string;
  want: QueueWant;
  durationMs: number;
  note: string;
  createdAtMs: number;
  state: QueueState;
  grantedAtMs: number | null;
  /** A grant not confirmed by then passes on. */
  confirmByMs: number | null;
  endedAtMs: number | null;
}

export type NewQueueRequest = Pick<QueueRequest, "user" | "want" | "durationMs" | "note" | "createdAtMs">;

/** One GPU (or whole host, `gpuIndex` null) granted to a request, as the claim `claimId`. */
export interface QueueGrant {
  requestId: number;
  claimId: number;
  host: string;
  gpuIndex: number | null;
  grantedAtMs: number;
}
