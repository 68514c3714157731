import { slotsText } from "../../../checks/claim-target.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { ClaimProblem } from "../../../usecases/claims/claim-problem.ts";
import { slackEscape } from "../../../usecases/power/action-text.ts";
import { gpuListIn, listIn } from "./claim-phrases.ts";

/** Hosts listed by name when there are at most this many. */
const HOSTS_LISTED = 10;

/** Why a claim, release or extend could not name anything, in the reader's words. */
export function claimProblemIn(tr: Translator, problem: ClaimProblem): string {
  switch (problem.kind) {
    case "too-long":
      return tr.t("claim.problem.tooLong", {
        max: tr.duration(problem.maxMs),
        asked: tr.duration(problem.durationMs),
      });
    case "unknown-host":
      return unknownHostIn(tr, problem);
    case "no-gpus-seen":
      return tr.t("claim.problem.noGpusSeen", { host: problem.host, whole: problem.host });
    case "no-such-gpus":
      return tr.t("claim.problem.noSuchGpus", {
        host: problem.host,
        has: gpuListIn(tr, problem.has),
        missing: gpuListIn(tr, problem.missing),
      });
    case "no-model": {
      const model = `\`${slackEscape(problem.model)}\``;
      return problem.models.length === 0
        ? tr.t("claim.problem.noModelKnown", { model })
        : tr.t("claim.problem.noModel", { model, models: listIn(tr, problem.models, "and") });
    }
    case "nothing-seen":
      return tr.t("claim.problem.nothingSeen");
    case "say-which":
      return tr.t("release.sayWhich", {
        count: problem.groups.length,
        what: listIn(tr, problem.groups.map(slotsText), "and"),
        all: "`all`",
      });
    case "whole-host":
      return tr.t("release.wholeHost", { host: problem.host, whole: problem.host });
    default:
      return problem satisfies never;
  }
}

function unknownHostIn(tr: Translator, problem: Extract<ClaimProblem, { kind: "unknown-host" }>): string {
  const host = slackEscape(problem.host);
  const { known, suggestion } = problem;
  if (suggestion !== null) return tr.t("claim.problem.unknownHost.suggest", { host, suggestion });
  if (known.length === 0) return tr.t("claim.problem.unknownHost.none", { host });
  if (known.length <= HOSTS_LISTED) {
    return tr.t("claim.problem.unknownHost.list", { host, hosts: listIn(tr, known, "and") });
  }
  return tr.t("claim.problem.unknownHost.many", { host, count: known.length });
}
