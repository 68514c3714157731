/** The simulation's event log: what happened, in order, with the ids that tie a stop to its victims. */
export type TeamEvent =
  | {
      kind: "run-started";
      atMs: number;
      runId: number;
      person: string;
      host: string;
      gpus: number;
      /** The run this one restarts after an interruption, if any. */
      restartOf: number | null;
    }
  | { kind: "run-finished"; atMs: number; runId: number; host: string }
  | { kind: "notebook-opened"; atMs: number; notebookId: number; person: string; host: string }
  | { kind: "notebook-closed"; atMs: number; notebookId: number; host: string }
  | { kind: "host-started"; atMs: number; host: string; person: string; readyAtMs: number }
  | {
      kind: "host-stopped";
      atMs: number;
      host: string;
      /** `policy` (the bot or the baseline rule), or a person tidying up by hand. */
      by: "policy" | "person";
      actor: string;
      /** Runs in progress on the host (setup and stage gaps included): each a false stop. */
      interruptedRuns: Array<{ runId: number; person: string; lostGpuHours: number }>;
      /**
       * Notebooks holding memory; `comesBackWithinDay`: its person was coming back within 24 h, and
       * then `lostGpuHours` is the GPU time its cells computed since its kernel started (else 0).
       */
      notebooks: Array<{
        notebookId: number;
        person: string;
        comesBackWithinDay: boolean;
        lostGpuHours: number;
      }>;
      falseStop: boolean;
      /** Minutes the host had been on with every GPU idle; `null` when a GPU was busy. */
      idleForMin: number | null;
    }
  /** A run killed or a notebook lost by a stop (one per victim; `falseStop`: its person needed it). */
  | {
      kind: "killed";
      atMs: number;
      host: string;
      /** Who stopped the host (as the `host-stopped` event before it). */
      actor: string;
      victim: "run" | "notebook";
      id: number;
      person: string;
      /**
       * GPU-hours to do again: a run's since its last checkpoint; a notebook's, when its person
       * comes back within the day, what its cells computed since its kernel started (else 0).
       */
      lostGpuHours: number;
      falseStop: boolean;
    }
  /** What a reading of the host would show, logged when it changes. `jobBusy`: a job or SSH session (SkyPilot's idea of busy) or a GPU process. */
  | {
      kind: "reading";
      atMs: number;
      host: string;
      power: "on" | "off" | "booting";
      busyGpus: number;
      processGpus: number;
      logins: number;
      jobBusy: boolean;
    }
  | { kind: "start-wait"; atMs: number; person: string; host: string; waitMin: number }
  /** Work that found no free GPUs got them after `waitMin` (see `WaitMode`). */
  | { kind: "gpu-wait"; atMs: number; person: string; gpus: number; waitMin: number }
  | { kind: "message"; atMs: number; to: string; what: "alert" | "dm" | "escalation" | "notice" }
  | {
      kind: "answer";
      atMs: number;
      person: string;
      host: string;
      action: "keep" | "stop" | "done" | "claim" | "still-using" | "release" | "nothing";
      outcome: string;
    };
