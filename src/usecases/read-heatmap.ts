import { busyShares, PROFILE_WEEKS } from "../checks/week-profile.ts";
import type { HeatmapInput, HeatmapRow } from "../reports/heatmap-chart.ts";
import { type EtaDeps, readWeekProfiles } from "./read-queue-eta.ts";

/**
 * What the summary's hour-of-week heatmap draws at `atMs`: per host, its GPUs' busy share in each
 * hour-of-week over the last {@link PROFILE_WEEKS} weeks (hosts without a known hour left out).
 */
export function readHeatmap(
  deps: EtaDeps & { config: { team: { timezone: string; currency: string } } },
  atMs: number,
): HeatmapInput {
  const profiles = readWeekProfiles(deps, atMs);
  const hosts = [...new Set(profiles.gpus.map((gpu) => gpu.host))];
  const rows = hosts.flatMap((host): HeatmapRow[] => {
    const gpus = profiles.gpus.filter((gpu) => gpu.host === host);
    const shares = busyShares(gpus);
    return shares.every((share) => share === null)
      ? []
      : [{ name: host, gpus: gpus.length, busyShares: shares }];
  });
  return {
    fromMs: profiles.fromMs,
    toMs: profiles.toMs,
    weeks: PROFILE_WEEKS,
    timezone: deps.config.team.timezone,
    currency: deps.config.team.currency,
    rows,
  };
}
