import type { ReclaimCase } from "../domain/reclaim-case.ts";
import type { ReclaimStore } from "../store/reclaim-store.ts";
import { mention } from "./action-text.ts";
import { isAdmin } from "./authorise.ts";
import type { Notifier } from "./ports.ts";
import type { ReclaimWords } from "./reclaim-words.ts";
import { type StopHostDeps, stopHost } from "./stop-host.ts";

/** The cost warden's choice at the end of a reclaim observation. */
export type ReclaimDecision =
  | { kind: "stop" }
  /** A person (who then owns the host), a project, or both. */
  | { kind: "lend"; owner: string | null; project: string | null }
  | { kind: "keep"; reason: string };

export type DecisionResult =
  | { kind: "decided"; entry: ReclaimCase; text: string }
  | { kind: "refused"; text: string }
  /** The stop did not happen (busy, no stop action, it failed): the case stays open. */
  | { kind: "not-stopped"; text: string };

export interface DecideReclaimDeps extends StopHostDeps {
  reclaims: ReclaimStore;
  notifier: Notifier;
  /** The decided case's words (the bot's views: `reclaimWords`). */
  reclaimWords: Pick<ReclaimWords, "decided">;
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
  if (entry === null) return { kind: "refused", text: "That reclaim case does not exist any more." };
  const refusal = checkOpen(deps, entry, request.actor);
  if (refusal !== null) return refusal;
  const decision = request.decision;

  if (decision.kind === "stop") {
    const result = await stopHost(deps, {
      host: entry.host,
      actor: request.actor,
      reason: "reclaim decision",
    });
    if (result.kind === "refused" || result.kind === "failed") {
      return { kind: "not-stopped", text: `${entry.host} was not stopped: ${result.text}` };
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
      return { kind: "refused", text: "Pick a person or name a project." };
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
        deps.notifier.send("chat.postMessage", {
          channel: owner,
          text:
            `${mention(request.actor)} lent you ${entry.host}${project === null ? "" : ` for ${project}`}: you own it now, ` +
            "so its idle alerts come to you and you may stop or keep it.",
        });
      }
      return result;
    });
  }
  const reason = decision.reason.trim();
  if (reason === "") return { kind: "refused", text: "Keeping a host needs a reason." };
  return close(deps, entry, request.actor, "kept", { reason }, "reclaim-keep");
}

/** Whether `actor` may decide `entry` now; `null` when they may. */
export function checkOpen(
  deps: Pick<DecideReclaimDeps, "warden" | "config" | "clock" | "reclaimWords">,
  entry: ReclaimCase,
  actor: string,
): DecisionResult | null {
  if (entry.state !== "pending" && entry.state !== "due") {
    return {
      kind: "refused",
      text: `Already decided: ${deps.reclaimWords.decided(entry, deps.config.team.timezone).text}`,
    };
  }
  const warden = deps.warden.current(deps.clock.now());
  if (actor !== warden && !isAdmin(actor, deps.config)) {
    const who = warden === null ? "an admin" : `the cost warden (${mention(warden)}) or an admin`;
    return { kind: "refused", text: `Only ${who} can decide about ${entry.host}.` };
  }
  if (entry.state === "pending") {
    return {
      kind: "refused",
      text: `${entry.host} is still under observation; the decision comes when it ends.`,
    };
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
  const zone = deps.config.team.timezone;
  return deps.state.transaction((): DecisionResult => {
    if (!deps.reclaims.end(entry.id, state, nowMs, actor, detail)) {
      const now = deps.reclaims.byId(entry.id);
      const what = now === null ? "the case is gone" : deps.reclaimWords.decided(now, zone).text;
      return { kind: "refused", text: `Already decided: ${what}` };
    }
    const ended = deps.reclaims.byId(entry.id)!;
    deps.state.audit.record({
      atMs: nowMs,
      actor,
      action,
      host: entry.host,
      detail: { caseId: entry.id, ...detail },
    });
    const message = deps.reclaimWords.decided(ended, zone);
    deps.notifier.send("chat.postMessage", {
      channel: deps.config.slack.channel,
      text: `Reclaim decision on ${message.text}`,
      ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
    });
    return { kind: "decided", entry: ended, text: message.text };
  });
}
