import type { ReclaimCase } from "../../domain/reclaim-case.ts";
import type { ReclaimStore } from "../../store/reclaim-store.ts";
import { isAdmin } from "../authorise.ts";
import type { Notifier } from "../ports.ts";
import { type StopHostDeps, type StopRefusal, type StopResult, stopHost } from "../power/stop-host.ts";
import type { ReclaimWords } from "./reclaim-words.ts";

/** The cost warden's choice at the end of a reclaim observation. */
export type ReclaimDecision =
  | { kind: "stop" }
  /** A person (who then owns the host), a project, or both. */
  | { kind: "lend"; owner: string | null; project: string | null }
  | { kind: "keep"; reason: string };

/** Why a decision was not taken. */
export type ReclaimRefusal =
  | { reason: "gone" }
  /** Someone decided first; `entry` is what they decided (`null`: the case is gone). */
  | { reason: "already-decided"; entry: ReclaimCase | null }
  /** Only the warden (`null`: none is set) or an admin may decide. */
  | { reason: "not-allowed"; host: string; warden: string | null }
  | { reason: "still-observed"; host: string }
  | { reason: "lend-needs-someone" }
  | { reason: "keep-needs-reason" };

export type DecisionResult =
  | { kind: "decided"; entry: ReclaimCase }
  | { kind: "refused"; refusal: ReclaimRefusal }
  /** The stop did not happen (busy, no stop action, it failed; `stop`: why): the case stays open. */
  | { kind: "not-stopped"; host: string; stop: StopRefusal | Extract<StopResult, { kind: "failed" }> };

export interface DecideReclaimDeps extends StopHostDeps {
  reclaims: ReclaimStore;
  notifier: Notifier;
  /** The decided case's words (the bot's views: `reclaimWords`). */
  reclaimWords: Pick<ReclaimWords, "decisionPost" | "lentDm">;
}

/**
 * Applies the warden's decision to an open case that is due. Only the current cost warden and
 * admins may decide; a case already decided (a double click, two people) is refused with what was
 * decided. *Stop* runs the host's stop (re-checked, exactly once) and closes the case only when the
 * stop went through; *Lend* records the new owner; *Keep* needs a reason. Each decision is audited
 * (`reclaim-stop`, `reclaim-lend`, `reclaim-keep`) and posted in the team channel.
 */
export async function decideReclaim(
  deps: DecideReclaimDeps,
  request: { caseId: number; actor: string; decision: ReclaimDecision },
): Promise<DecisionResult> {
  const { reclaims, clock } = deps;
  const entry = reclaims.byId(request.caseId);
  if (entry === null) return { kind: "refused", refusal: { reason: "gone" } };
  const refusal = checkOpen(deps, entry, request.actor);
  if (refusal !== null) return refusal;
  const decision = request.decision;

  if (decision.kind === "stop") {
    const result = await stopHost(deps, {
      host: entry.host,
      actor: request.actor,
      reason: "reclaim decision", // words-ok: audit reason code
    });
    if (result.kind === "refused" || result.kind === "failed") {
      return { kind: "not-stopped", host: entry.host, stop: result };
    }
    return close(
      deps,
      entry,
      request.actor,
      "stopped",
      { dryRun: result.kind === "dry-run" },
      "reclaim-stop",
    );
  }
  if (decision.kind === "lend") {
    const owner = decision.owner;
    const project = decision.project?.trim() || null;
    if (owner === null && project === null)
      return { kind: "refused", refusal: { reason: "lend-needs-someone" } };
    const nowMs = clock.now();
    return deps.state.transaction(() => {
      const result = close(deps, entry, request.actor, "lent", { owner, project }, "reclaim-lend");
      if (result.kind !== "decided") return result;
      reclaims.lend({
        host: entry.host,
        owner,
        project,
        sinceMs: nowMs,
        byUser: request.actor,
        caseId: entry.id,
      });
      if (owner !== null && owner !== request.actor) {
        const dm = deps.reclaimWords.lentDm({ actor: request.actor, host: entry.host, project, owner });
        deps.notifier.send("chat.postMessage", { channel: owner, text: dm.text });
      }
      return result;
    });
  }
  const reason = decision.reason.trim();
  if (reason === "") return { kind: "refused", refusal: { reason: "keep-needs-reason" } };
  return close(deps, entry, request.actor, "kept", { reason }, "reclaim-keep");
}

/** Whether `actor` may decide `entry` now; `null` when they may. */
export function checkOpen(
  deps: Pick<DecideReclaimDeps, "warden" | "config" | "clock">,
  entry: ReclaimCase,
  actor: string,
): DecisionResult | null {
  if (entry.state !== "pending" && entry.state !== "due") {
    return { kind: "refused", refusal: { reason: "already-decided", entry } };
  }
  const warden = deps.warden.current(deps.clock.now());
  if (actor !== warden && !isAdmin(actor, deps.config)) {
    return { kind: "refused", refusal: { reason: "not-allowed", host: entry.host, warden } };
  }
  if (entry.state === "pending") {
    return { kind: "refused", refusal: { reason: "still-observed", host: entry.host } };
  }
  return null;
}

function close(
  deps: DecideReclaimDeps,
  entry: ReclaimCase,
  actor: string,
  state: "stopped" | "lent" | "kept",
  detail: Record<string, unknown>,
  action: string,
): DecisionResult {
  const nowMs = deps.clock.now();
  return deps.state.transaction((): DecisionResult => {
    if (!deps.reclaims.end(entry.id, state, nowMs, actor, detail)) {
      return { kind: "refused", refusal: { reason: "already-decided", entry: deps.reclaims.byId(entry.id) } };
    }
    const ended = deps.reclaims.byId(entry.id)!;
    deps.state.audit.record({
      atMs: nowMs,
      actor,
      action,
      host: entry.host,
      detail: { caseId: entry.id, ...detail },
    });
    const message = deps.reclaimWords.decisionPost(ended);
    deps.notifier.send("chat.postMessage", {
      channel: deps.config.slack.channel,
      text: message.text,
      ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
    });
    return { kind: "decided", entry: ended };
  });
}
