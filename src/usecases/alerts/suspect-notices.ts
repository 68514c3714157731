import type { HostSample } from "../../checks/classify-host.ts";
import { localDayBounds } from "../../checks/local-day.ts";
import type { Config } from "../../config/schema.ts";
import { type SuspectSpan, suspectSpans } from "../../reports/suspect-spans.ts";
import type { AuditStore } from "../../store/audit-store.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { Notifier, WardenLookup } from "../ports.ts";
import type { AlertWords } from "./alert-words.ts";

export interface SuspectNoticeDeps {
  config: Config;
  state: BotStateStore;
  notifier: Notifier;
  warden: WardenLookup;
  owners: (host: string) => readonly string[];
  alertWords: Pick<AlertWords, "suspectReading">;
}

/** What the store keeps per host: the GPUs in a suspect episode, and when each began. */
type Told = Record<string, number>;

/** Audit action of a GPU turning suspect (the summary flags its hours); `suspect-ended` when it is over. */
export const SUSPECT_AUDIT = "suspect-reading";
export const SUSPECT_ENDED_AUDIT = "suspect-ended";

const metaKey = (host: string) => `suspect-readings:${host}`;

/**
 * Tells the host's owners (or the cost warden when it has none) once per GPU and suspect episode
 * that its readings are implausible, and audits each episode's start and end. The episodes live in
 * the store, so a restart neither repeats a notice nor forgets one. A failed poll changes nothing:
 * only a reading ends an episode.
 */
export function noticeSuspectReadings(
  deps: SuspectNoticeDeps,
  host: string,
  sample: HostSample,
  nowMs: number,
): void {
  if (!sample.ok) return;
  const { state } = deps;
  const stored = state.meta.get(metaKey(host));
  const told: Told = stored === null ? {} : (JSON.parse(stored) as Told);
  const suspect = sample.gpus.filter((gpu) => gpu.class === "suspect");
  const fresh = suspect.filter((gpu) => told[gpu.index] === undefined);
  const ended = Object.keys(told).filter((index) => !suspect.some((gpu) => String(gpu.index) === index));
  if (fresh.length === 0 && ended.length === 0) return;
  state.transaction(() => {
    const next: Told = { ...told };
    for (const index of ended) {
      state.audit.record({
        atMs: nowMs,
        actor: "gpu-warden",
        action: SUSPECT_ENDED_AUDIT,
        host,
        detail: { gpu: Number(index), sinceMs: told[index] },
      });
      delete next[index];
    }
    for (const gpu of fresh) {
      next[gpu.index] = sample.atMs;
      state.audit.record({
        atMs: nowMs,
        actor: "gpu-warden",
        action: SUSPECT_AUDIT,
        host,
        detail: { gpu: gpu.index, utilPct: gpu.utilPct, memUsedMiB: gpu.memUsedMiB, powerW: gpu.powerW },
      });
    }
    if (Object.keys(next).length === 0) state.meta.delete(metaKey(host));
    else state.meta.set(metaKey(host), JSON.stringify(next));
    if (fresh.length > 0) tell(deps, host, fresh, sample.atMs, nowMs);
  });
}

function tell(
  deps: SuspectNoticeDeps,
  host: string,
  gpus: Extract<HostSample, { ok: true }>["gpus"],
  sinceMs: number,
  nowMs: number,
): void {
  const owners = [...deps.owners(host)];
  const warden = deps.warden.current(nowMs);
  const people = owners.length > 0 ? owners : warden === null ? [] : [warden];
  const shown = gpus.flatMap((gpu) =>
    gpu.utilPct === null
      ? []
      : [{ index: gpu.index, utilPct: gpu.utilPct, memUsedMiB: gpu.memUsedMiB, powerW: gpu.powerW }],
  );
  for (const user of people) {
    const message = deps.alertWords.suspectReading({
      reader: user,
      host,
      gpus: shown,
      sinceMs,
      nowMs,
      timezone: deps.config.team.timezone,
      role: owners.length > 0 ? "owner" : "warden",
    });
    deps.notifier.send("chat.postMessage", { channel: user, text: message.text, blocks: message.blocks });
  }
}

/** The GPUs with suspect readings over a range of local days (both included), largest first. */
export function suspectSpansOverDays(
  audit: Pick<AuditStore, "between">,
  range: { fromDay: string; toDay: string },
  zone: string,
): SuspectSpan[] {
  const period = {
    fromMs: localDayBounds(range.fromDay, zone).startMs,
    toMs: localDayBounds(range.toDay, zone).endMs,
  };
  const entries = audit.between([SUSPECT_AUDIT, SUSPECT_ENDED_AUDIT], 0, period.toMs);
  return suspectSpans(entries, period, SUSPECT_AUDIT, SUSPECT_ENDED_AUDIT);
}
