import type { PolicyFigures } from "../../src/simulation/policy-figures.ts";
import { runTeamMonth } from "../../src/simulation/run-team-month.ts";
import type { TeamEvent } from "../../src/simulation/team-events.ts";
import { DEFAULT_TEAM_PARAMS, type TeamParams } from "../../src/simulation/team-params.ts";
import { POLICY_NAMES, type PolicyName } from "../../src/simulation/team-policy.ts";

/** How people answer in a run: as drawn, 2× or 4× slower, or never. */
export type AnswerVariant = "as-drawn" | "slower-x2" | "slower-x4" | "never";

export interface OutcomeRun {
  key: string;
  policy: PolicyName;
  answers: AnswerVariant;
}

export const POLICY_RUNS: OutcomeRun[] = POLICY_NAMES.map((policy) => ({
  key: policy,
  policy,
  answers: "as-drawn",
}));

/** The sensitivity runs: only the bot's policies depend on people answering. */
export const SENSITIVITY_RUNS: OutcomeRun[] = (["gpu-warden", "gpu-warden-autostop"] as const).flatMap(
  (policy) =>
    (["slower-x2", "slower-x4", "never"] as const).map((answers) => ({
      key: `${policy}@${answers}`,
      policy,
      answers,
    })),
);

export function paramsFor(answers: AnswerVariant, base: TeamParams = DEFAULT_TEAM_PARAMS): TeamParams {
  const slowdown = answers === "slower-x2" ? 2 : answers === "slower-x4" ? 4 : 1;
  return { ...base, answers: { ...base.answers, slowdown, nobody: answers === "never" } };
}

export interface OutcomeResult {
  key: string;
  seed: number;
  figures: PolicyFigures;
  runSeconds: number;
}

/** One run: its figures, and the event log they were computed from. */
export async function runOutcome(
  run: OutcomeRun,
  seed: number = DEFAULT_TEAM_PARAMS.seed,
): Promise<{ result: OutcomeResult; events: TeamEvent[] }> {
  const month = await runTeamMonth({ ...paramsFor(run.answers), seed }, run.policy);
  return {
    result: { key: run.key, seed, figures: month.figures, runSeconds: month.runSeconds },
    events: month.events,
  };
}
