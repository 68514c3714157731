import { createHash } from "node:crypto";
import type { HostSample } from "../../checks/classify-host.ts";
import type { IdleEpisodeState } from "../../checks/idle-episode.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import type { IdleSnapshotRow } from "../../domain/idle-snapshot.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import { restoreWindowMinutes } from "./alert-policy.ts";
import type { AlertRun } from "./idle-alert-run.ts";

/** A host's state read back from the snapshot: everything but its latest sample, which the store has. */
export interface SnapshotState {
  atMs: number;
  state: IdleEpisodeState;
}

/**
 * A fingerprint of what a host's idle state depends on besides its samples: the idle policy and
 * whether the host is `never_stop`. A snapshot taken under another one is not used.
 */
export function policyFingerprint(policy: IdlePolicy, neverStop: boolean): string {
  const digest = policyDigests.get(policy) ?? digestOf(policy);
  return neverStop ? `${digest}/never-stop` : digest;
}

// NOTE: one digest per policy object: a run keeps its policy, and every sweep asks for it.
const policyDigests = new WeakMap<IdlePolicy, string>();

function digestOf(policy: IdlePolicy): string {
  const keys = Object.keys(policy).sort() as (keyof IdlePolicy)[];
  const text = JSON.stringify(keys.map((key) => [key, policy[key] ?? null]));
  const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
  policyDigests.set(policy, digest);
  return digest;
}

/**
 * Each host's snapshot is written every this many sweeps (a tenth of the hosts at each), so that a
 * sweep of 10,000 hosts writes 1,000 rows (~84 ms for all of them, measured) and a restart replays at
 * most this many polls after a host's snapshot.
 */
export const SNAPSHOT_EVERY_SWEEPS = 10;

/**
 * Writes the states of this sweep's share of the hosts (`every` sweeps cover them all) that changed
 * since their last write (call inside the sweep's transaction): one row per host, its latest
 * sample left out (a restart reads it back from the store). Once per round of `every` sweeps it
 * deletes the rows no restart from `nowMs` on can use (older than the restore window): those of
 * hosts that left the fleet, were renamed, or have been silent since.
 */
export function saveIdleSnapshot(
  run: AlertRun,
  every = SNAPSHOT_EVERY_SWEEPS,
  nowMs = run.clock.now(),
): void {
  const fingerprints = [policyFingerprint(run.policy, false), policyFingerprint(run.policy, true)] as const;
  const share = run.snapshot.sweeps++ % every;
  if (share === 0) run.store.idleSnapshot.deleteOlderThan(restoreWindowStartMs(run, nowMs));
  const rows: IdleSnapshotRow[] = [];
  for (const [host, state] of run.states) {
    if (state.lastSampleAtMs === null || run.snapshot.written.get(host) === state) continue;
    if (every > 1 && bucketOf(host, every) !== share) continue;
    const neverStop = run.settingsOf(host)?.never_stop ?? false;
    rows.push({
      host,
      atMs: state.lastSampleAtMs,
      policy: fingerprints[neverStop ? 1 : 0],
      state: JSON.stringify({ ...state, latest: null }),
    });
    run.snapshot.written.set(host, state);
  }
  run.store.idleSnapshot.putAll(rows);
}

/** The oldest snapshot time a restart at `nowMs` may start from (the restore window's start). */
function restoreWindowStartMs(run: AlertRun, nowMs: number): number {
  return nowMs - restoreWindowMinutes(run.policy) * MINUTE_MS;
}

/** The sweep (of `every`) that writes the host's snapshot: a hash of its name. */
function bucketOf(host: string, every: number): number {
  let hash = 0;
  for (let i = 0; i < host.length; i++) hash = (Math.imul(hash, 31) + host.charCodeAt(i)) | 0;
  return (hash >>> 0) % every;
}

/**
 * The snapshot's states a restart may start from: taken under the policy in force (and the host's
 * `never_stop` now) and no older than `sinceMs`, the start of the restore window.
 */
export function usableSnapshots(run: AlertRun, sinceMs: number, nowMs: number): Map<string, SnapshotState> {
  const fingerprints = [policyFingerprint(run.policy, false), policyFingerprint(run.policy, true)] as const;
  const usable = new Map<string, SnapshotState>();
  for (const row of run.store.idleSnapshot.all()) {
    const neverStop = run.settingsOf(row.host)?.never_stop ?? false;
    if (row.policy !== fingerprints[neverStop ? 1 : 0] || row.atMs < sinceMs || row.atMs > nowMs) continue;
    usable.set(row.host, { atMs: row.atMs, state: JSON.parse(row.state) as IdleEpisodeState });
  }
  return usable;
}

/**
 * The snapshot's state with its latest sample put back: the first of `samples` (the store's, from
 * the snapshot's time on) at the snapshot's time; `null` when the store has none at that time.
 */
export function resumeFrom(snapshot: SnapshotState, samples: readonly HostSample[]): IdleEpisodeState | null {
  const latest = samples.find((sample) => sample.atMs === snapshot.atMs);
  return latest === undefined ? null : { ...snapshot.state, latest };
}
