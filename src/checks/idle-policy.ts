/**
 * The fleet-wide rules that decide when a host is idle. Durations are in minutes, as configured
 * (`policy.*` in the YAML); `staleAfterMinutes` comes from the poll interval.
 */
export interface IdlePolicy {
  /** A GPU sample with utilisation below this is idle; at or above it, busy. */
  idleUtilPct: number;
  /**
   * All GPUs idle and no active login session, continuously for this long, makes an idle episode.
   * A session whose last input is at least this old is not active.
   */
  idleForMinutes: number;
  /** No episode starts sooner than this after the host's latest busy stretch started. */
  protectMinutes: number;
  /**
   * A sample older than this at sweep time is unknown (`stale`), and a gap longer than this between
   * two consecutive samples means the host went unobserved: every stretch restarts after it.
   * About three poll intervals.
   */
  staleAfterMinutes: number;
  /** Consecutive unknown polls before one "no data from host" notice. */
  noDataPolls: number;
  /** Idle-level power for the implausible-reading rule (`suspect-reading.ts`); default 150 W. */
  suspectIdlePowerW?: number;
  /**
   * After a successful stop, a host that goes on reporting idle starts no new episode for this long
   * (`policy.stop_grace_minutes`: the stop follow-up says first whether the stop worked); default 0.
   */
  stopGraceMinutes?: number;
}

/** The defaults from the design's rules table, for a 60 s poll interval. */
export const DEFAULT_IDLE_POLICY: Readonly<IdlePolicy> = {
  idleUtilPct: 10,
  idleForMinutes: 30,
  protectMinutes: 120,
  staleAfterMinutes: 3,
  noDataPolls: 5,
};

/** What the checks need to know about one host besides its samples. */
export interface HostContext {
  /** `never_stop` hosts (inference servers…) are never idle, never alerted and never stopped. */
  neverStop: boolean;
  /** Idle episodes are held back until this instant (Keep buttons, `/gpu keep`); `null`: not snoozed. */
  snoozedUntilMs: number | null;
  /** When the stop workflow last stopped this host (from the audit log); `null`: never. */
  stoppedAtMs: number | null;
}

export const DEFAULT_HOST_CONTEXT: Readonly<HostContext> = {
  neverStop: false,
  snoozedUntilMs: null,
  stoppedAtMs: null,
};
