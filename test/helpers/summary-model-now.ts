import { type SummaryInput, type SummaryModel, summaryModelSteps } from "../../src/reports/summary-model.ts";
import { runSteps } from "../../src/shared/steps.ts";

/** The summary model of `input` computed at once: what `buildSummaryModelPaced` computes between its pauses. */
export function buildSummaryModel(input: SummaryInput): SummaryModel {
  return runSteps(summaryModelSteps(input));
}
