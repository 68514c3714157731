import { workloadLookup } from "../../checks/allocate-projects.ts";
import { buildHostWeekShares } from "../../checks/host-week-shares.ts";
import { projectRollups } from "../../checks/project-rollups.ts";
import {
  buildWeekProfiles,
  busyShares,
  type GpuWeekProfile,
  PROFILE_WEEKS,
  profileWindow,
  type WeekProfiles,
} from "../../checks/week-profile.ts";
import { workloadProjectResolver } from "../../checks/workload-project.ts";
import type { Config } from "../../config/schema.ts";
import type { Claim } from "../../domain/claim.ts";
import type { WorkloadHour } from "../../domain/workload-hour.ts";
import type { HeatmapInput, HeatmapRow } from "../../reports/heatmap-chart.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { EtaDeps } from "../queue/read-queue-eta.ts";
import { claimSpan } from "./project-report.ts";

type HeatmapDeps = EtaDeps & { config: { team: { timezone: string; currency: string } } };

/**
 * What the summary's hour-of-week heatmap draws at `atMs`: per host, its GPUs' busy share in each
 * hour-of-week over the last {@link PROFILE_WEEKS} weeks (hosts without a known hour left out).
 */
export function readHeatmap(deps: HeatmapDeps, atMs: number): HeatmapInput {
  const window = profileWindow(atMs);
  const { gpus, at } = deps.metrics.rollupHours();
  const shares = buildHostWeekShares(at, gpus, window, deps.config.team.timezone);
  const rows = shares.map((row) => ({ name: row.host, gpus: row.gpus, busyShares: row.busyShares }));
  return heatmapInput(deps, window, rows);
}

/** What a project's heatmap reads besides the rollups. */
export interface ProjectHeatmapDeps extends HeatmapDeps {
  metrics: HeatmapDeps["metrics"] & Pick<MetricsStore, "rollupsBetween">;
  config: HeatmapDeps["config"] & Pick<Config, "projects">;
  claims: { overlapping(fromMs: number, toMs: number): Claim[] };
  workloads: { between(fromMs: number, toMs: number): WorkloadHour[] };
}

/**
 * `/gpu heatmap project=X`: {@link readHeatmap} over `project`'s GPU time only, attributed as the
 * cost allocation does (its claims, then its namespaces, label and logins: see {@link projectRollups}),
 * per host it used.
 */
export function readProjectHeatmap(deps: ProjectHeatmapDeps, atMs: number, project: string): HeatmapInput {
  const window = profileWindow(atMs);
  const resolve = workloadProjectResolver(deps.config.projects);
  const workloads = deps.workloads.between(window.fromMs, window.toMs);
  const lookup = workloadLookup(workloads.map((hour) => ({ ...hour, project: resolve(hour) })));
  const claims = deps.claims.overlapping(window.fromMs, window.toMs).map((claim) => claimSpan(claim, atMs));
  const rollups = projectRollups(
    deps.metrics.rollupsBetween(window.fromMs, window.toMs),
    claims,
    lookup,
    project,
  );
  const profiles = buildWeekProfiles(rollups, new Map(), window, deps.config.team.timezone);
  return { ...heatmapOf(deps, profiles), project };
}

function heatmapOf(deps: HeatmapDeps, profiles: WeekProfiles): HeatmapInput {
  const byHost = new Map<string, GpuWeekProfile[]>();
  for (const gpu of profiles.gpus) {
    const gpus = byHost.get(gpu.host);
    if (gpus === undefined) byHost.set(gpu.host, [gpu]);
    else gpus.push(gpu);
  }
  const rows = [...byHost].flatMap(([host, gpus]): HeatmapRow[] => {
    const shares = busyShares(gpus);
    return shares.every((share) => share === null)
      ? []
      : [{ name: host, gpus: gpus.length, busyShares: shares }];
  });
  return heatmapInput(deps, profiles, rows);
}

/** The heatmap of `rows` over the profiles' window, in the team's zone and currency. */
function heatmapInput(
  deps: HeatmapDeps,
  window: { fromMs: number; toMs: number },
  rows: HeatmapRow[],
): HeatmapInput {
  const { timezone, currency } = deps.config.team;
  return { fromMs: window.fromMs, toMs: window.toMs, weeks: PROFILE_WEEKS, timezone, currency, rows };
}
