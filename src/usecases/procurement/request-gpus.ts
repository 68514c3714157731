import { localDayOf } from "../../checks/local-day.ts";
import {
  checkProcurementForm,
  type PlanProblem,
  type ProcurementField,
  type ProcurementForm,
} from "../../checks/procurement-plan.ts";
import type { Config } from "../../config/schema.ts";
import type { ProcurementRequest } from "../../domain/procurement-request.ts";
import type { Clock } from "../../shared/clock.ts";
import type { AuditStore } from "../../store/audit-store.ts";
import type { ProcurementStore } from "../../store/procurement-store.ts";
import type { Notifier, WardenLookup } from "../ports.ts";
import type { ProcurementWords } from "./procurement-words.ts";

/** What a request for more GPUs and its decision need. */
export interface ProcurementDeps {
  config: Pick<Config, "slack" | "team">;
  clock: Clock;
  state: {
    procurement: ProcurementStore;
    audit: Pick<AuditStore, "record">;
    transaction<T>(fn: () => T): T;
  };
  notifier: Notifier;
  warden: WardenLookup;
}

export type SubmitResult =
  | { kind: "submitted"; request: ProcurementRequest }
  /** Nothing was stored: each problem goes under its field. */
  | { kind: "refused"; problems: Partial<Record<ProcurementField, PlanProblem>> };

/**
 * `/gpu request`'s form submitted: checked against the red line (`checkProcurementForm`); a
 * complete request is stored, audited (`procurement-request`) and posted in the team channel to
 * the cost warden and the admins with the decision buttons, in one transaction.
 */
export function submitProcurementRequest(
  deps: ProcurementDeps,
  input: { requester: string; project: string | null; form: ProcurementForm },
  words: Pick<ProcurementWords, "requestPost">,
): SubmitResult {
  const nowMs = deps.clock.now();
  const checked = checkProcurementForm(input.form, localDayOf(nowMs, deps.config.team.timezone));
  if (!checked.ok) return { kind: "refused", problems: checked.problems };
  const { procurement, audit } = deps.state;
  return deps.state.transaction(() => {
    const id = procurement.create({
      requester: input.requester,
      project: input.project,
      atMs: nowMs,
      draft: checked.draft,
    });
    const request = procurement.byId(id)!;
    audit.record({
      atMs: nowMs,
      actor: input.requester,
      action: "procurement-request",
      host: null,
      detail: {
        request: id,
        project: input.project,
        model: request.model,
        count: request.count,
        kind: request.kind,
      },
    });
    const post = words.requestPost(request, {
      warden: deps.warden.current(nowMs),
      admins: deps.config.slack.admins,
    });
    deps.notifier.send("chat.postMessage", {
      channel: deps.config.slack.channel,
      text: post.text,
      ...(post.blocks === undefined ? {} : { blocks: post.blocks }),
    });
    return { kind: "submitted", request };
  });
}
