/** How the GPUs asked for would come: bought, rented (a lease) or on-demand cloud. */
export const PROCUREMENT_KINDS = ["buy", "rent", "cloud"] as const;
export type ProcurementKind = (typeof PROCUREMENT_KINDS)[number];

/** One task of a plan: what is run, from which local day (`YYYY-MM-DD`). */
export interface PlanTask {
  day: string;
  task: string;
}

/** A plan's expected GPU-hours in one calendar month (`YYYY-MM`, team time zone). */
export interface PlanMonth {
  month: string;
  gpuHours: number;
}

/** A request for more GPUs, as filled in and checked (`checkProcurementForm`). */
export interface ProcurementDraft {
  model: string;
  count: number;
  kind: ProcurementKind;
  why: string;
  tasks: PlanTask[];
  months: PlanMonth[];
  acceptance: string;
}

/** `open`: waiting for the warden or an admin; the others are their decision. */
export type ProcurementState = "open" | "approved" | "rejected" | "more-asked";

/** A stored request (`/gpu request`) and its decision. */
export interface ProcurementRequest extends ProcurementDraft {
  id: number;
  requester: string;
  /** The project it is for; `null`: none. */
  project: string | null;
  createdAtMs: number;
  state: ProcurementState;
  decidedBy: string | null;
  decidedAtMs: number | null;
  /** The reason of a rejection, or the question of an *Ask for more*. */
  reason: string | null;
}
