/**
 * Where a request stands: in line, granted and awaiting *Confirm*, confirmed, ended without a claim
 * (`lapsed`, `cancelled`), or its granted claims released by the person (`released`).
 */
export type QueueState = "waiting" | "granted" | "confirmed" | "lapsed" | "cancelled" | "released";

/**
 * What a request waits for: some GPUs of a host (`gpus` null: the whole host), or any `count` GPUs (of
 * a model, or with at least `floorMiB` of memory; with `valley`, granted only inside the tariff's valley).
 */
export type QueueWant =
  | { kind: "slots"; host: string; gpus: readonly number[] | null }
  | { kind: "count"; count: number; model: string | null; floorMiB?: number; valley?: true };

export interface QueueRequest {
  id: number;
  user: string;
  want: QueueWant;
  durationMs: number;
  note: string;
  createdAtMs: number;
  /** The project it waits for (`null`: none), and that project's priority when it joined (higher first). */
  project: string | null;
  priority: number;
  state: QueueState;
  grantedAtMs: number | null;
  /** A grant not confirmed by then passes on. */
  confirmByMs: number | null;
  endedAtMs: number | null;
}

export type NewQueueRequest = Pick<QueueRequest, "user" | "want" | "durationMs" | "note" | "createdAtMs"> &
  Partial<Pick<QueueRequest, "project" | "priority">>;

/** One GPU (or whole host, `gpuIndex` null) granted to a request, as the claim `claimId`. */
export interface QueueGrant {
  requestId: number;
  claimId: number;
  host: string;
  gpuIndex: number | null;
  grantedAtMs: number;
}
