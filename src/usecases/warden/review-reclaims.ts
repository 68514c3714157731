import { type HostProjectUse, projectsOnHost } from "../../checks/host-projects.ts";
import {
  DEFAULT_RECLAIM,
  type ReclaimDay,
  type ReclaimPolicy,
  reclaimStep,
  type UtilMinutes,
} from "../../checks/reclaim.ts";
import type { Config } from "../../config/schema.ts";
import type { GpuHourRollup, HostRecord } from "../../domain/metrics.ts";
import type { ReclaimCase } from "../../domain/reclaim-case.ts";
import { localMidnights } from "../../reports/local-days.ts";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { AuditStore } from "../../store/audit-store.ts";
import type { ClaimStore } from "../../store/claim-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { ReclaimStore } from "../../store/reclaim-store.ts";
import type { Notifier, WardenLookup } from "../ports.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import type { ReclaimMessageContext, ReclaimWords } from "./reclaim-words.ts";

/** What the reclaim review and decisions need. */
export interface ReclaimDeps {
  config: Config;
  metrics: Pick<MetricsStore, "hosts" | "rollupTotals" | "rollupsBetween">;
  reclaims: ReclaimStore;
  state: { audit: AuditStore; transaction<T>(fn: () => T): T; claims?: Pick<ClaimStore, "overlapping"> };
  notifier: Notifier;
  warden: WardenLookup;
  clock: Clock;
  logger: Logger;
  /** The reclaim messages' words (the bot's views: `reclaimWords`). */
  reclaimWords: Pick<ReclaimWords, "pending" | "cleared" | "decision">;
}

export interface ReclaimReview {
  started: string[];
  cleared: string[];
  due: string[];
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The reclaim rule with the config's threshold and observation length. */
export function reclaimPolicyOf(config: Pick<Config, "reclaim">): ReclaimPolicy {
  return {
    ...DEFAULT_RECLAIM,
    belowPct: config.reclaim.below_pct,
    sustainedPct: config.reclaim.below_pct,
    observeDays: config.reclaim.observe_days,
  };
}

/**
 * The daily reclaim review at `nowMs`: every host (but `never_stop` ones) whose 30-day mean is
 * under the threshold becomes pending reclaim and the cost warden is told; a pending host with a
 * day of sustained use is cleared; one whose observation is over goes to the warden with the
 * decision buttons. Each change is audited and messaged in one transaction (the outbox), so a
 * crash never leaves a change unannounced. Without a warden the messages go to the channel.
 */
export function reviewReclaims(deps: ReclaimDeps, nowMs = deps.clock.now()): ReclaimReview {
  const { config, reclaims } = deps;
  const policy = reclaimPolicyOf(config);
  const review: ReclaimReview = { started: [], cleared: [], due: [] };
  if (!config.reclaim.enabled) return review;
  const windowFromMs = Math.floor((nowMs - policy.windowDays * DAY_MS) / HOUR_MS) * HOUR_MS;
  const windowToMs = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const windowMinutes = (windowToMs - windowFromMs) / 60_000;
  const totals = new Map<string, UtilMinutes>();
  for (const gpu of deps.metrics.rollupTotals(windowFromMs, windowToMs)) {
    const sum = totals.get(gpu.host) ?? { utilPctMinutes: 0, knownMinutes: 0, spanMinutes: 0 };
    if (gpu.utilMeanPct !== null) {
      sum.utilPctMinutes += gpu.utilMeanPct * (gpu.busyMinutes + gpu.idleMinutes);
      sum.knownMinutes += gpu.busyMinutes + gpu.idleMinutes;
    }
    totals.set(gpu.host, sum);
  }
  const open = new Map(reclaims.allOpen().map((entry) => [entry.host, entry]));

  for (const host of deps.metrics.hosts()) {
    if (config.hosts[host.name]?.never_stop === true) continue;
    const entry = open.get(host.name) ?? null;
    const window = totals.get(host.name) ?? { utilPctMinutes: 0, knownMinutes: 0, spanMinutes: 0 };
    const step = reclaimStep(
      {
        host: host.name,
        firstSeenMs: host.firstSeenMs,
        open:
          entry === null
            ? null
            : {
                state: entry.state === "due" ? "due" : "pending",
                startedAtMs: entry.startedAtMs,
                observeUntilMs: entry.observeUntilMs,
              },
        lastEndedAtMs: entry === null ? (reclaims.lastEnded(host.name)?.endedAtMs ?? null) : null,
        window: { ...window, spanMinutes: host.gpus.length * windowMinutes },
        days: entry === null ? [] : observedDays(deps, host, entry, nowMs),
        nowMs,
      },
      policy,
    );
    switch (step.kind) {
      case "none":
        break;
      case "start": {
        const started = deps.state.transaction(() => {
          const created = reclaims.start({
            host: host.name,
            startedAtMs: nowMs,
            windowMeanPct: step.windowMeanPct,
            observeUntilMs: step.observeUntilMs,
          });
          if (created === null) return null;
          audit(deps, nowMs, "reclaim-pending", created, { windowMeanPct: step.windowMeanPct });
          tellWarden(deps, nowMs, (ctx) => deps.reclaimWords.pending(created, ctx), created.host);
          return created;
        });
        if (started !== null) review.started.push(host.name);
        break;
      }
      case "clear": {
        const cleared = deps.state.transaction(() => {
          const detail = { dayStartMs: step.dayStartMs, dayMeanPct: step.dayMeanPct };
          if (!reclaims.end(entry!.id, "cleared", nowMs, BOT_ACTOR, detail)) return false;
          audit(deps, nowMs, "reclaim-cleared", entry!, detail);
          tellWarden(deps, nowMs, (ctx) =>
            deps.reclaimWords.cleared(entry!, step.dayStartMs, step.dayMeanPct, ctx),
          );
          return true;
        });
        if (cleared) review.cleared.push(host.name);
        break;
      }
      case "due": {
        const due = deps.state.transaction(() => {
          if (!reclaims.markDue(entry!.id, nowMs)) return false;
          const updated = reclaims.byId(entry!.id)!;
          audit(deps, nowMs, "reclaim-due", updated, {});
          tellWarden(deps, nowMs, (ctx) => deps.reclaimWords.decision(updated, ctx), updated.host);
          return true;
        });
        if (due) review.due.push(host.name);
        break;
      }
      default:
        step satisfies never;
    }
  }
  if (review.started.length + review.cleared.length + review.due.length > 0) {
    deps.logger.info(review, "reclaim review");
  }
  return review;
}

/** Complete local days (team time zone) since the case started, from the host's rollups. */
function observedDays(deps: ReclaimDeps, host: HostRecord, entry: ReclaimCase, nowMs: number): ReclaimDay[] {
  const zone = deps.config.team.timezone;
  const midnights = localMidnights(entry.startedAtMs, nowMs + 1, zone);
  if (midnights.length < 2) return [];
  const rows = deps.metrics.rollupsBetween(midnights[0]!, midnights.at(-1)!, host.name);
  const days: ReclaimDay[] = [];
  for (let i = 0; i + 1 < midnights.length; i++) {
    const fromMs = midnights[i]!;
    const toMs = midnights[i + 1]!;
    days.push({ dayStartMs: fromMs, minutes: dayMinutes(rows, fromMs, toMs, host.gpus.length) });
  }
  return days;
}

function dayMinutes(rows: readonly GpuHourRollup[], fromMs: number, toMs: number, gpus: number): UtilMinutes {
  const minutes: UtilMinutes = {
    utilPctMinutes: 0,
    knownMinutes: 0,
    spanMinutes: (gpus * (toMs - fromMs)) / 60_000,
  };
  for (const row of rows) {
    if (row.hourMs < fromMs || row.hourMs >= toMs || row.utilMeanPct === null) continue;
    const known = row.busyMinutes + row.idleMinutes;
    minutes.utilPctMinutes += row.utilMeanPct * known;
    minutes.knownMinutes += known;
  }
  return minutes;
}

function audit(
  deps: ReclaimDeps,
  atMs: number,
  action: string,
  entry: ReclaimCase,
  detail: Record<string, unknown>,
): void {
  deps.state.audit.record({
    atMs,
    actor: BOT_ACTOR,
    action,
    host: entry.host,
    detail: { caseId: entry.id, ...detail },
  });
}

/** A DM to the warden in office at `atMs`, or a channel post when there is none. */
function tellWarden(
  deps: ReclaimDeps,
  atMs: number,
  render: (ctx: ReclaimMessageContext) => {
    text: string;
    blocks?: unknown[];
  },
  host?: string,
): void {
  const warden = deps.warden.current(atMs);
  const reply = render({
    timezone: deps.config.team.timezone,
    belowPct: deps.config.reclaim.below_pct,
    warden,
    ...usedByOf(deps, host, atMs),
  });
  deps.notifier.send("chat.postMessage", {
    channel: warden ?? deps.config.slack.channel,
    text: reply.text,
    ...(reply.blocks === undefined ? {} : { blocks: reply.blocks }),
  });
}

/** The projects that held `host` in the 30 days before `atMs`, when the claims are at hand. */
function usedByOf(deps: ReclaimDeps, host: string | undefined, atMs: number): { usedBy?: HostProjectUse[] } {
  const claims = deps.state.claims;
  if (host === undefined || claims === undefined) return {};
  const fromMs = atMs - 30 * 24 * 3_600_000;
  const gpus = deps.metrics.hosts().find((record) => record.name === host)?.gpus.length ?? 0;
  return { usedBy: projectsOnHost(claims.overlapping(fromMs, atMs), host, fromMs, atMs, gpus) };
}
