import type { HostProjectUse } from "./host-projects.ts";
/**
 * Do-not-renew: a rented or cloud host (one with a `cost_per_hour`) whose mean utilisation stayed
 * below 20 % in two consecutive biweekly periods is not worth renewing. Pure.
 */

export interface RenewalInput {
  host: string;
  /** Rented or cloud: the host has a `cost_per_hour`. */
  paidByTheHour: boolean;
  /** Mean utilisation over the GPU-minutes with a reading; `null` without readings. */
  currentUtilPct: number | null;
  previousUtilPct: number | null;
}

export interface RenewalFlag {
  host: string;
  currentUtilPct: number;
  previousUtilPct: number;
  /** The projects whose claims held it over the period, most first (absent: not known). */
  usedBy?: HostProjectUse[];
}

export const DEFAULT_RENEWAL_BELOW_PCT = 20;

/** The hosts not to renew, lowest current utilisation first. */
export function doNotRenew(
  hosts: readonly RenewalInput[],
  belowPct = DEFAULT_RENEWAL_BELOW_PCT,
): RenewalFlag[] {
  const flags: RenewalFlag[] = [];
  for (const host of hosts) {
    const { currentUtilPct: current, previousUtilPct: previous } = host;
    if (!host.paidByTheHour || current === null || previous === null) continue;
    if (current < belowPct && previous < belowPct) {
      flags.push({
        host: host.host,
        currentUtilPct: current,
        previousUtilPct: previous,
      });
    }
  }
  return flags.sort((a, b) => a.currentUtilPct - b.currentUtilPct || (a.host < b.host ? -1 : 1));
}
