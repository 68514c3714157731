/**
 * One host over one complete local day (team time zone). GPU-hours add up to `gpus`' hours of the
 * day since each GPU was first seen; money is in the team currency.
 */
export interface LedgerDay {
  /** `YYYY-MM-DD`, local. */
  day: string;
  host: string;
  /** Length of the day: 23, 24 or 25 on DST days. */
  hours: number;
  /** Hours the host was on (some GPU had a reading). */
  onHours: number;
  gpus: number;
  busyGpuHours: number;
  idleGpuHours: number;
  /** No reading: host off or unreachable, bot down. */
  unknownGpuHours: number;
  /** From the power readings, else rated watts × hours on; `null` when neither is known. */
  energyKWh: number | null;
  /** `null` when the host has no price configured. */
  cost: number | null;
  /** The share of `cost` for idle GPU-hours: capacity unused. */
  idleCost: number | null;
  /** The part of `idleCost` a stop would have saved (cloud price, power, upkeep per hour on); `null`: unknown. */
  idleSaving?: number | null;
  capital: number;
  upkeep: number;
  energyCost: number;
  rent: number;
  /** Digest of the prices, tariff and zone the row was computed with. */
  basis: string;
  computedAtMs: number;
}
