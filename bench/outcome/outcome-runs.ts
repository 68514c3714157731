import type { PolicyFigures } from "../../src/simulation/run-team-month.ts";
import { runTeamMonth } from "../../src/simulation/run-team-month.ts";
import { DEFAULT_TEAM_PARAMS, type TeamParams } from "../../src/simulation/team-params.ts";
import type { PolicyName } from "../../src/simulation/team-policy.ts";

/** How people answer in a run: as drawn, 2× or 4× slower, or never. */
export type AnswerVariant = "as-drawn" | "slower-x2" | "slower-x4" | "never";

export interface OutcomeRun {
  key: string;
  policy: PolicyName;
  answers: AnswerVariant;
}

export const POLICY_RUNS: OutcomeRun[] = (
  ["none", "gpu-warden", "gpu-warden-autostop", "autostop-5", "autostop-30", "nightly"] as const
).map((policy) => ({ key: policy, policy, answers: "as-drawn" }));

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
  figures: PolicyFigures;
  runSeconds: number;
}

export async function runOutcome(run: OutcomeRun, seed?: number): Promise<OutcomeResult> {
  const params = paramsFor(run.answers);
  const month = await runTeamMonth(seed === undefined ? params : { ...params, seed }, run.policy);
  return { key: run.key, figures: month.figures, runSeconds: month.runSeconds };
}
