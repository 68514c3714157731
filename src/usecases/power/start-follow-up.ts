import type { Config } from "../../config/schema.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { AlertPort, FleetView } from "../ports.ts";
import { BOT_ACTOR } from "./action-text.ts";
import type { StartNote, StartRun } from "./start-facts.ts";
import { latestStart, saveStart } from "./start-host.ts";

export interface StartFollowUpDeps {
  config: Config;
  state: BotStateStore;
  fleet: Pick<FleetView, "latest">;
  alerts: Pick<AlertPort, "postNote" | "tell">;
}

/**
 * After each poll: for every host whose start action succeeded and that the bot waits for, says
 * once, in the thread and to the people waiting, that it reports again, or that it did not within
 * `policy.start_grace_minutes` (audited as `start-unconfirmed`). Kept in the store, so a restart
 * neither repeats nor forgets it.
 */
export function followUpStarts(deps: StartFollowUpDeps, nowMs: number): void {
  for (const [host, settings] of Object.entries(deps.config.hosts)) {
    if (settings.start === undefined) continue;
    const run = latestStart(deps, host);
    if (run === null || run.state !== "started") continue;
    followUpStart(deps, run, nowMs);
  }
}

function followUpStart(deps: StartFollowUpDeps, run: StartRun, nowMs: number): void {
  const { host } = run;
  const latest = deps.fleet.latest(host);
  const reported = latest?.observation.ok === true && (latest.lastOkAtMs ?? 0) >= run.startedAtMs;
  const graceMinutes = deps.config.policy.start_grace_minutes;
  if (!reported && nowMs - run.startedAtMs < graceMinutes * MINUTE_MS) return;
  const note: StartNote = reported
    ? { kind: "start-up", host, startedAtMs: run.startedAtMs, nowMs }
    : { kind: "start-unconfirmed", host, startedAtMs: run.startedAtMs, nowMs, graceMinutes };
  deps.state.transaction(() => {
    saveStart(deps, { ...run, state: reported ? "up" : "unconfirmed" });
    deps.state.audit.record({
      atMs: nowMs,
      actor: BOT_ACTOR,
      action: reported ? "start-confirmed" : "start-unconfirmed",
      host,
      detail: { startedAtMs: run.startedAtMs, trigger: run.trigger, waiters: run.waiters },
    });
    deps.alerts.postNote(host, note);
    for (const user of run.waiters) deps.alerts.tell(user, note);
  });
}
