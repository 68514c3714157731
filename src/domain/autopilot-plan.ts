/** The autopilot's plans as the check makes them and the store keeps them (see `checks/autopilot-plan.ts`). */

/** One process a stale session left on a GPU, as the warning names it. */
export interface StaleHolder {
  /** Login name on the host; `null` when the source does not say. */
  user: string | null;
  name: string;
  pid: number | null;
  /** GPU indexes it holds memory on. */
  gpus: readonly number[];
  /** Memory it holds over all its GPUs; `null` when unknown. */
  memMiB: number | null;
}

/** What a planned stop acts on, as the warning and the stop's thread note show it. */
export type AutopilotEvidence =
  | {
      class: "empty";
      emptySinceMs: number;
      /**
       * Claimants whose claims, made before the host became empty, no longer hold it outside working
       * hours (the claims stay); absent: no claim.
       */
      outlivedClaims?: readonly string[];
    }
  | {
      class: "stale";
      /** Start of the idle stretch of the GPUs. */
      idleSinceMs: number;
      holders: readonly StaleHolder[];
      /** Login sessions left, each idle at least `staleHours` (their user and line). */
      sessions: ReadonlyArray<{ user: string; line: string; idleMinutes: number }>;
    };

export type EvidenceClass = AutopilotEvidence["class"];

/** A warned stop, persisted so that a restart neither forgets it nor warns twice. */
export interface AutopilotPlan {
  host: string;
  /** The open idle alert the plan belongs to: a new episode (a new alert) makes a new plan. */
  alertId: number;
  evidence: AutopilotEvidence;
  warnedAtMs: number;
  stopAtMs: number;
}
