import type { NotebookPlan, RunPlan } from "./team-calendar.ts";
import type { Rng } from "./team-random.ts";

/**
 * A training run on some GPUs of one host. `setup`: downloading data or building, no GPU process
 * yet; `train`: the GPUs busy (a data-loading stall now and then); `gap`: between two stages, the
 * process has exited. A run in any of these is in progress.
 */
export interface SimRun {
  id: number;
  person: number;
  host: string;
  gpus: number[];
  plan: RunPlan;
  phase: "waiting" | "setup" | "train" | "gap" | "done" | "killed";
  /** Minutes left in `setup` or `gap`. */
  phaseLeftMin: number;
  /** Training minutes done, counted from the start of the whole job (checkpoints carry over). */
  progressMin: number;
  /** Minutes left in the current data-loading stall. */
  stallLeftMin: number;
  restartOf: number | null;
  rng: Rng;
}

/** A notebook kernel holding memory on one GPU: `open` while its person works, else left over night. */
export interface SimNotebook {
  id: number;
  person: number;
  host: string;
  gpu: number;
  phase: "waiting" | "open" | "resume" | "forgotten" | "closed" | "killed";
  fate: NotebookPlan["fate"];
  forgottenMs: number;
  burstLeftMin: number;
  burstUtilPct: number;
  /**
   * Minutes its cells have kept the GPU busy since the kernel started: the computation its state
   * holds, which its person re-runs to rebuild that state when the kernel is killed.
   */
  computedMin: number;
  rng: Rng;
}

export type SlotHolder = { kind: "run"; run: SimRun } | { kind: "notebook"; notebook: SimNotebook };

export function runInProgress(run: SimRun): boolean {
  return run.phase === "setup" || run.phase === "train" || run.phase === "gap";
}

/** Training progress kept by the last checkpoint (nothing for a run without checkpoints). */
export function checkpointedMin(run: SimRun): number {
  const every = run.plan.checkpointEveryMin;
  return every === null ? 0 : Math.floor(run.progressMin / every) * every;
}
