import { hostSampleAt } from "../../checks/sweep.ts";
import type { StopRun } from "../../domain/stop-run.ts";
import type { StopRunStore } from "../../store/stop-run-store.ts";
import { BOT_ACTOR } from "./action-text.ts";
import type { StopNote } from "./stop-facts.ts";
import type { StopHostDeps } from "./stop-host.ts";

/** Past its steps' timeouts, a run this process is not executing is given this long to have ended. */
const GRACE_MS = 5_000;

/** The runs each store's process is executing now: never ended as interrupted, whatever their age. */
const executing = new WeakMap<StopRunStore, Set<number>>();

/** Marks run `id` as executed by this process until {@link leftStopRun}. */
export function enteredStopRun(store: StopRunStore, id: number): void {
  const ids = executing.get(store) ?? new Set<number>();
  ids.add(id);
  executing.set(store, ids);
}

/** The run has ended (or thrown) in this process. */
export function leftStopRun(store: StopRunStore, id: number): void {
  executing.get(store)?.delete(id);
}

/**
 * A `running` run left behind by a process that died mid-stop: not executed here, and older than
 * the host's `pre_stop` and `stop` timeouts (what the steps may still have been doing), plus a grace.
 */
export function isStaleStopRun(
  deps: Pick<StopHostDeps, "config" | "state">,
  run: StopRun,
  nowMs: number,
): boolean {
  if (run.state !== "running" || executing.get(deps.state.stopRuns)?.has(run.id) === true) return false;
  const settings = deps.config.hosts[run.host];
  const stepsS = (settings?.pre_stop?.timeout_seconds ?? 0) + (settings?.stop?.timeout_seconds ?? 0);
  return nowMs - run.startedAtMs > stepsS * 1000 + GRACE_MS;
}

/**
 * Ends every stale `running` stop run ({@link isStaleStopRun}; of `host` only, when given) as
 * `interrupted`: audited as `stop-interrupted`, said in the alert's thread with what a re-check of
 * the host finds now, and the alert refreshed so its Stop button works again. Returns the runs ended.
 */
export function endInterruptedStops(deps: StopHostDeps, host?: string): StopRun[] {
  const nowMs = deps.clock.now();
  const ended: StopRun[] = [];
  for (const run of deps.state.stopRuns.running()) {
    if ((host !== undefined && run.host !== host) || !isStaleStopRun(deps, run, nowMs)) continue;
    if (deps.state.transaction(() => interrupt(deps, run, nowMs))) ended.push(run);
  }
  return ended;
}

function interrupt(deps: StopHostDeps, run: StopRun, nowMs: number): boolean {
  if (!deps.state.stopRuns.interrupt(run.id, nowMs)) return false;
  const latest = deps.fleet.latest(run.host);
  const answering = latest !== null && hostSampleAt(run.host, latest.observation, nowMs, deps.idlePolicy).ok;
  deps.state.audit.record({
    atMs: nowMs,
    actor: BOT_ACTOR,
    action: "stop-interrupted",
    host: run.host,
    detail: {
      runId: run.id,
      key: run.key,
      alertId: run.alertId,
      by: run.actor,
      startedAtMs: run.startedAtMs,
      answering,
    },
    forced: run.forced,
    dryRun: false,
  });
  deps.logger.warn(
    { host: run.host, runId: run.id, startedAtMs: run.startedAtMs },
    "a stop was still running when gpu-warden stopped; ended as interrupted",
  );
  const note: StopNote = {
    kind: "stop-interrupted",
    host: run.host,
    actor: run.actor === BOT_ACTOR ? null : run.actor,
    answering,
  };
  deps.alerts.postNote(run.host, note);
  deps.alerts.refresh(run.host);
  return true;
}
