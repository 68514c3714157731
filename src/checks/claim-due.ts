/**
 * What a claim needs from the minute job: expiry, the "ends soon" reminder, the "claimed but idle"
 * nudge, or release after sitting idle. Pure: the claim, how long its GPUs have been idle, the
 * rules and the time in; decisions out.
 */

/** The claim rules in milliseconds (from `claims.*` in the config). */
export interface ClaimRules {
  /** Claims without a duration last this long. */
  defaultMs: number;
  /** The longest claim; extensions are cut to it (counted from now). */
  maxMs: number;
  /** The "ends soon" DM this long before the end; 0: none. */
  reminderMs: number;
  /** Idle this long: the "still using it?" DM. */
  nudgeMs: number;
  /** Idle this long: released; `null`: never. */
  releaseMs: number | null;
}

/** The parts of a claim (group) the decisions look at. */
export interface ClaimTimes {
  fromMs: number;
  untilMs: number;
  remindedAtMs: number | null;
  nudgedAtMs: number | null;
  stillUsingAtMs: number | null;
}

export type ClaimDue = "expire" | "auto-release" | "nudge" | "remind";

export interface ClaimDecision {
  due: ClaimDue[];
  /** Since when the claim counts as idle (never before it began or before "still using it"); `null`: not idle. */
  idleFromMs: number | null;
}

/**
 * Where the idle samples of a claim need reading from, or `null` when it cannot have been idle
 * long enough to matter yet (younger than the nudge, counting from "still using it").
 */
export function idleLookbackFromMs(claim: ClaimTimes, rules: ClaimRules, nowMs: number): number | null {
  if (nowMs - claimIdleStartMs(claim) < rules.nudgeMs) return null;
  return lookbackStartMs(claim, rules, nowMs);
}

/**
 * Where the claim's idle samples begin to matter: its start (or its "still using it"), at most the
 * longest of the nudge and the release back from `nowMs`; {@link idleLookbackFromMs} without the age test.
 */
export function lookbackStartMs(claim: ClaimTimes, rules: ClaimRules, nowMs: number): number {
  return Math.max(claimIdleStartMs(claim), nowMs - Math.max(rules.nudgeMs, rules.releaseMs ?? 0));
}

/** When the claim was made or last confirmed (*Still using it*): what it was made for began then. */
export function claimIdleStartMs(claim: Pick<ClaimTimes, "fromMs" | "stillUsingAtMs">): number {
  return Math.max(claim.fromMs, claim.stillUsingAtMs ?? Number.NEGATIVE_INFINITY);
}

/**
 * The claim's decisions at `nowMs`. Expiry comes alone (at or after the end); so does auto-release
 * (idle for `releaseMs`). A nudge goes out once per idle stretch (again only after the GPUs were
 * busy or the holder said "still using it"). The reminder goes out once per end time, and only
 * for claims longer than the reminder lead.
 */
export function claimDue(
  claim: ClaimTimes,
  idleSinceMs: number | null,
  rules: ClaimRules,
  nowMs: number,
): ClaimDecision {
  const idleFromMs =
    idleSinceMs === null
      ? null
      : Math.max(idleSinceMs, claim.fromMs, claim.stillUsingAtMs ?? Number.NEGATIVE_INFINITY);
  if (nowMs >= claim.untilMs) return { due: ["expire"], idleFromMs };
  const idleMs = idleFromMs === null ? null : nowMs - idleFromMs;
  if (idleMs !== null && rules.releaseMs !== null && idleMs >= rules.releaseMs) {
    return { due: ["auto-release"], idleFromMs };
  }
  const due: ClaimDue[] = [];
  if (
    idleMs !== null &&
    idleFromMs !== null &&
    idleMs >= rules.nudgeMs &&
    (claim.nudgedAtMs === null || claim.nudgedAtMs <= idleFromMs)
  ) {
    due.push("nudge");
  }
  if (
    rules.reminderMs > 0 &&
    claim.remindedAtMs === null &&
    nowMs >= claim.untilMs - rules.reminderMs &&
    claim.untilMs - claim.fromMs > rules.reminderMs
  ) {
    due.push("remind");
  }
  return { due, idleFromMs };
}
