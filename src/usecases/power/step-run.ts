import type { ActionConfig } from "../../config/schema.ts";
import type { ActionOutcome } from "../../executors/run-action.ts";
import type { StepEnd, StepRun } from "./stop-facts.ts";

/** How an action's step went, for the thread and the person who asked (stops and starts). */
export function stepRun(outcome: ActionOutcome, action: ActionConfig): StepRun {
  return { description: outcome.description, end: stepEnd(outcome, action), tail: outcome.outputTail.trim() };
}

function stepEnd(outcome: ActionOutcome, action: ActionConfig): StepEnd {
  const command = "command" in action;
  if (outcome.timedOut) return { kind: command ? "killed" : "no-answer", seconds: action.timeout_seconds };
  if (outcome.exitCode === null) return { kind: "not-run" };
  return command ? { kind: "exited", code: outcome.exitCode } : { kind: "http", status: outcome.exitCode };
}
