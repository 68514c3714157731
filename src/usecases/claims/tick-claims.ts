import { claimDue } from "../../checks/claim-due.ts";
import { groupClaims } from "../../checks/claim-groups.ts";
import { slotsText } from "../../checks/claim-target.ts";
import type { Claim } from "../../domain/claim.ts";
import { startAhead } from "../autopilot/start-ahead.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { startReserved } from "../power/start-reserved.ts";
import { tickQueue } from "../queue/queue-tick.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";
import { afterClaimsChanged, expireDue, recordEnded } from "./claim-effects.ts";
import { claimIdleSince } from "./claim-idle-runs.ts";

/** What one run of {@link tickClaims} did, in claim groups. */
export interface ClaimTickResult {
  expired: number;
  reminded: number;
  nudged: number;
  autoReleased: number;
}

/**
 * The claims job (every minute, on the injected clock): ends claims past their end and tells their
 * holders; sends the "ends soon" DM (*Extend 4 h* / *Release*) `claims.reminder_minutes` before the
 * end; for claims whose GPUs have all been idle (stored samples below `policy.idle_util_pct`; no
 * reading, a gap or a stale sample is not idle) for `claim_idle_nudge_minutes`, a DM (*Still using
 * it* / *Release*), and after `claim_idle_release_minutes` the release, with a notice. Every step is
 * marked in the store in the same transaction as its DM, so a rerun or a restart never repeats one.
 * Then the waiting list's turn ({@link tickQueue}): unconfirmed grants pass on, free GPUs are granted;
 * then stopped hosts whose reservation opens soon are started ({@link startReserved}).
 */
export function tickClaims(deps: ClaimDeps, nowMs: number = deps.clock.now()): ClaimTickResult {
  const { state, config, notifier } = deps;
  const rules = claimRulesOf(config);
  const at = { nowMs, zone: config.team.timezone };
  const result: ClaimTickResult = { expired: 0, reminded: 0, nudged: 0, autoReleased: 0 };
  const ended: Claim[] = [];

  const expired = expireDue(deps, nowMs);
  ended.push(...expired);
  result.expired = groupClaims(expired).length;

  const groups = groupClaims(state.claims.activeAt(nowMs));
  const idleSince = claimIdleSince(deps, groups, nowMs);

  for (const group of groups) {
    const idleSinceMs = idleSince.get(group) ?? null;
    const decision = claimDue(group, idleSinceMs, rules, nowMs);
    if (decision.due.length === 0) continue;
    state.transaction(() => {
      for (const due of decision.due) {
        switch (due) {
          case "expire":
            break;
          case "auto-release": {
            const idleFromMs = decision.idleFromMs ?? nowMs;
            const released = state.claims.release(group.claimIds, nowMs, BOT_ACTOR, "idle");
            recordEnded(deps, released, { kind: "idle", idleFromMs }, BOT_ACTOR, nowMs);
            ended.push(...released);
            result.autoReleased++;
            break;
          }
          case "nudge": {
            const idleFromMs = decision.idleFromMs ?? nowMs;
            const releaseAtMs = rules.releaseMs === null ? null : idleFromMs + rules.releaseMs;
            const dm = deps.claimWords.nudge(group, idleFromMs, releaseAtMs, at);
            state.claims.markNudged(group.claimIds, nowMs);
            notifier.send("chat.postMessage", { channel: group.user, text: dm.text, blocks: dm.blocks });
            state.audit.record({
              atMs: nowMs,
              actor: BOT_ACTOR,
              action: "claim-nudge",
              host: group.host,
              detail: { claimIds: group.claimIds, holder: group.user, gpus: group.gpus, idleFromMs },
            });
            result.nudged++;
            break;
          }
          case "remind": {
            const dm = deps.claimWords.reminder(group, at);
            state.claims.markReminded(group.claimIds, nowMs);
            notifier.send("chat.postMessage", { channel: group.user, text: dm.text, blocks: dm.blocks });
            result.reminded++;
            break;
          }
          default:
            due satisfies never;
        }
      }
    });
    deps.logger.debug({ claim: slotsText(group), holder: group.user, due: decision.due }, "claim tick");
  }
  if (ended.length > 0) afterClaimsChanged(deps, { ended }, nowMs);
  tickQueue(deps, nowMs);
  startReserved(deps, nowMs);
  startAhead(deps, nowMs);
  return result;
}
