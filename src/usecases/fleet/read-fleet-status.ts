import { busyUnclaimed, type UnclaimedUse } from "../../checks/claim-usage.ts";
import { countActiveSessions, hostClass } from "../../checks/classify-host.ts";
import type { HostStatus, IdleEpisodeState } from "../../checks/idle-episode.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import { hostSampleAt } from "../../checks/sweep.ts";
import type { HostSettings } from "../../config/schema.ts";
import type { AlertRecord } from "../../domain/alert-record.ts";
import type { AuditEntry } from "../../domain/audit-entry.ts";
import type { Claim } from "../../domain/claim.ts";
import type { HostObservation } from "../../domain/observation.ts";
import type { Snooze } from "../../domain/snooze.ts";
import { describeAction } from "../../executors/run-action.ts";
import type { HostActionDeps } from "../authorise.ts";
import { stoppedByBot } from "../power/start-host.ts";
import { isKnownHost, knownHosts } from "./known-hosts.ts";

export interface FleetStatusDeps extends Pick<HostActionDeps, "config" | "state" | "fleet" | "clock"> {
  idlePolicy: IdlePolicy;
}

/**
 * One host on the fleet board. `status` is the checks' status after the latest sweep, except that a
 * host whose latest observation failed or went stale is `unknown` now, and a configured host never
 * seen is `never-seen`.
 */
export interface HostSummary {
  host: string;
  status: HostStatus | "never-seen";
  gpus: number;
  busyGpus: number;
  /** GPUs whose latest reading is implausible (`suspect-reading.ts`); not counted in `busyGpus`. */
  suspectGpus: SuspectGpu[];
  /** Mean utilisation over the GPUs with a reading; `null` when none has one. */
  meanUtilPct: number | null;
  /** Start of the current idle stretch. */
  idleSinceMs: number | null;
  /** When the host last answered with readings; `null` when never. */
  lastOkAtMs: number | null;
  /** Why there is no data (the failed observation's message), when known. */
  problem: string | null;
  /** Users with an active login session. */
  activeUsers: string[];
  claims: Claim[];
  /** GPUs busy now that no claim covers ("in use, unclaimed"), with their processes' owners. */
  unclaimedBusy: UnclaimedUse[];
  snooze: Snooze | null;
  openAlert: AlertRecord | null;
  /** The bot's stop that left the host off (no report since): when and by whom (`gpu-warden`: automatically). */
  stoppedBy?: { atMs: number; actor: string } | null;
}

/** A GPU with an implausible reading, with the figures that make it so. */
export interface SuspectGpu {
  index: number;
  utilPct: number;
  memUsedMiB: number | null;
  powerW: number | null;
}

export interface FleetStatus {
  atMs: number;
  timezone: string;
  hosts: HostSummary[];
}

export interface HostDetail extends HostSummary {
  observation: HostObservation | null;
  episode: IdleEpisodeState | null;
  settings: HostSettings | null;
  /** What Stop would run, e.g. `ssh gpu-a sudo poweroff`; `null` without a stop action. */
  stopAction: string | null;
  dryRun: boolean;
  /** The latest alert, open or resolved. */
  latestAlert: AlertRecord | null;
  /** Newest first. */
  recentAudit: AuditEntry[];
  warden: string | null;
}

const AUDIT_SHOWN = 5;

/** What a sweep calls an idle host that is not kept; an active keep makes it `snoozed`. */
const IDLE_STATUSES: ReadonlySet<HostStatus | "never-seen"> = new Set(["idle", "idle-pending", "protected"]);

/** Every known host (of `cluster` only, when given: `b/…`), sorted, with what the fleet board shows. */
export function readFleetStatus(deps: FleetStatusDeps, cluster: string | null = null): FleetStatus {
  const nowMs = deps.clock.now();
  const claims = groupBy(deps.state.claims.activeAt(nowMs), (claim) => claim.host);
  const snoozes = new Map(deps.state.snoozes.allActiveAt(nowMs).map((snooze) => [snooze.host, snooze]));
  const alerts = new Map(
    deps.state.alerts
      .allOpen()
      .filter((alert) => alert.kind === "idle")
      .map((alert) => [alert.host, alert]),
  );
  const prefix = cluster === null ? null : `${cluster.toLowerCase()}/`;
  const inCluster = (host: string) => prefix === null || host.toLowerCase().startsWith(prefix);
  const hosts = knownHosts({ fleet: deps.fleet, config: deps.config })
    .filter(inCluster)
    .map((host) =>
      summarise(deps, host, nowMs, {
        claims: claims.get(host) ?? [],
        snooze: snoozes.get(host) ?? null,
        openAlert: alerts.get(host) ?? null,
      }),
    );
  return { atMs: nowMs, timezone: deps.config.team.timezone, hosts };
}

/** One host in detail; `null` when the host is not known. */
export function readHostDetail(
  deps: FleetStatusDeps & Pick<HostActionDeps, "warden">,
  host: string,
): HostDetail | null {
  if (!isKnownHost(deps, host)) return null;
  const nowMs = deps.clock.now();
  const { state, config } = deps;
  const summary = summarise(deps, host, nowMs, {
    claims: state.claims.activeOn(host, nowMs),
    snooze: state.snoozes.activeAt(host, nowMs),
    openAlert: state.alerts.openFor(host, "idle"),
  });
  const settings = config.hosts[host] ?? null;
  return {
    ...summary,
    observation: deps.fleet.latest(host)?.observation ?? null,
    episode: deps.fleet.state(host),
    settings,
    stopAction: settings?.stop === undefined ? null : describeAction(settings.stop),
    dryRun: settings?.dry_run ?? config.dry_run,
    latestAlert: state.alerts.latest(host),
    recentAudit: state.audit.forHost(host, AUDIT_SHOWN),
    warden: deps.warden.current(nowMs),
  };
}

function summarise(
  deps: FleetStatusDeps,
  host: string,
  nowMs: number,
  extra: Pick<HostSummary, "claims" | "snooze" | "openAlert">,
): HostSummary {
  const latest = deps.fleet.latest(host);
  const episode = deps.fleet.state(host);
  const base = {
    host,
    gpus: 0,
    busyGpus: 0,
    suspectGpus: [],
    meanUtilPct: null,
    idleSinceMs: null,
    lastOkAtMs: latest?.lastOkAtMs ?? null,
    problem: null,
    activeUsers: [],
    unclaimedBusy: [],
    stoppedBy: stoppedFacts(deps, host),
    ...extra,
  };
  if (latest === null)
    return { ...base, status: deps.config.hosts[host]?.never_stop ? "exempt" : "never-seen" };
  const observation = latest.observation;
  const gpuCount = observation.ok ? observation.gpus.length : 0;
  const readings = observation.ok
    ? observation.gpus.flatMap((gpu) => (gpu.utilPct === null ? [] : [gpu.utilPct]))
    : [];
  const sample = hostSampleAt(host, observation, nowMs, deps.idlePolicy);
  const neverStop = deps.config.hosts[host]?.never_stop === true;
  const common = {
    ...base,
    gpus: gpuCount,
    busyGpus: readings.filter((utilPct) => utilPct >= deps.idlePolicy.idleUtilPct).length,
    meanUtilPct:
      readings.length === 0 ? null : readings.reduce((sum, utilPct) => sum + utilPct, 0) / readings.length,
  };
  if (!sample.ok) {
    return {
      ...common,
      status: neverStop ? "exempt" : "unknown",
      problem: observation.ok ? null : observation.message,
    };
  }
  const activeUsers = [
    ...new Set(
      (sample.sessions ?? [])
        .filter((session) => countActiveSessions([session], deps.idlePolicy.idleForMinutes) === 1)
        .map((session) => session.user),
    ),
  ];
  const suspectGpus = sample.gpus.flatMap((gpu): SuspectGpu[] =>
    gpu.class === "suspect"
      ? [{ index: gpu.index, utilPct: gpu.utilPct, memUsedMiB: gpu.memUsedMiB, powerW: gpu.powerW }]
      : [],
  );
  const swept = episode?.status ?? fallbackStatus(hostClass(sample));
  // NOTE: a keep shows at once, not after the next sweep (which would say the same).
  const kept = extra.snooze !== null && IDLE_STATUSES.has(swept);
  const status = neverStop ? "exempt" : kept ? "snoozed" : swept;
  return {
    ...common,
    status,
    busyGpus: common.busyGpus - suspectGpus.length,
    suspectGpus,
    idleSinceMs: episode?.idleSinceMs ?? null,
    activeUsers,
    unclaimedBusy: observation.ok
      ? busyUnclaimed(
          observation.gpus.filter((gpu) => !suspectGpus.some((suspect) => suspect.index === gpu.index)),
          extra.claims,
          deps.idlePolicy.idleUtilPct,
        )
      : [],
  };
}

function fallbackStatus(sampleClass: ReturnType<typeof hostClass>): HostStatus {
  switch (sampleClass) {
    case "busy":
    case "session":
      return "busy";
    case "idle":
      return "idle-pending";
    case "suspect":
      return "suspect";
    case "unknown":
      return "unknown";
    default:
      return sampleClass satisfies never;
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
}

function stoppedFacts(deps: FleetStatusDeps, host: string): { atMs: number; actor: string } | null {
  const run = stoppedByBot(deps, host);
  return run === null ? null : { atMs: run.finishedAtMs ?? run.startedAtMs, actor: run.actor };
}
