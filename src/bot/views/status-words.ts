import { groupClaims } from "../../checks/claim-groups.ts";
import { formatGpuList } from "../../checks/claim-target.ts";
import type { UnclaimedUse } from "../../checks/claim-usage.ts";
import { formatDuration } from "../../shared/duration.ts";
import { slotLabel } from "../../shared/gpu-slot.ts";
import type { Claim } from "../../store/claim-store.ts";
import { localWhen, mention, slackEscape } from "../../usecases/action-text.ts";
import type { HostSummary, SuspectGpu } from "../../usecases/read-fleet-status.ts";

/** The board's groups, in the order shown: what needs a decision first. */
export const STATUS_GROUPS = [
  { title: "Idle", statuses: ["idle"] },
  { title: "No data", statuses: ["unknown", "never-seen"] },
  { title: "Suspect readings", statuses: ["suspect"] },
  { title: "Going idle", statuses: ["idle-pending", "protected"] },
  { title: "Kept", statuses: ["snoozed"] },
  { title: "In use", statuses: ["busy"] },
  { title: "Never stopped", statuses: ["exempt"] },
] as const satisfies ReadonlyArray<{ title: string; statuses: ReadonlyArray<HostSummary["status"]> }>;

/**
 * One host in a few words: `idle since 12:30 (2 h 5 min) · 8 GPUs at 0 % · claimed by @bob until
 * 17:00 · alert open`.
 */
export function hostWords(summary: HostSummary, nowMs: number, zone: string): string {
  const when = (ms: number) => localWhen(ms, nowMs, zone);
  const parts = [statusWords(summary, nowMs, zone)];
  const shownGpus =
    summary.status !== "unknown" && summary.status !== "never-seen" && summary.status !== "suspect";
  if (shownGpus) parts.push(gpuWords(summary));
  if (summary.claims.length > 0) parts.push(claimsWords(summary.claims, nowMs, zone));
  if (summary.unclaimedBusy.length > 0) parts.push(unclaimedWords(summary.unclaimedBusy));
  if (summary.openAlert !== null) {
    const autoStop = summary.openAlert.autoStopAtMs;
    parts.push(autoStop === null ? "alert open" : `auto-stop at ${when(autoStop)}`);
  }
  return parts.join(" · ");
}

export function statusWords(summary: HostSummary, nowMs: number, zone: string): string {
  const when = (ms: number) => localWhen(ms, nowMs, zone);
  const idleSince =
    summary.idleSinceMs === null
      ? "idle"
      : `idle since ${when(summary.idleSinceMs)} (${formatDuration(nowMs - summary.idleSinceMs)})`;
  switch (summary.status) {
    case "idle":
      return idleSince;
    case "idle-pending":
      return summary.idleSinceMs === null
        ? "going idle"
        : `idle for ${formatDuration(nowMs - summary.idleSinceMs)}`;
    case "protected":
      return `${idleSince}, within the protection window`;
    case "snoozed":
      return summary.snooze === null
        ? "kept"
        : `kept by ${mention(summary.snooze.byUser)} until ${when(summary.snooze.untilMs)}`;
    case "busy":
      return summary.busyGpus === 0 && summary.activeUsers.length > 0
        ? `in use: ${summary.activeUsers.map(slackEscape).join(", ")} logged in`
        : "in use";
    case "unknown": {
      const since = summary.lastOkAtMs === null ? "no data yet" : `no data since ${when(summary.lastOkAtMs)}`;
      return summary.problem === null ? since : `${since} (${slackEscape(summary.problem)})`;
    }
    case "suspect":
      return suspectWords(summary.suspectGpus);
    case "never-seen":
      return "no data yet";
    case "exempt":
      return "never stopped";
    default:
      return summary.status satisfies never;
  }
}

/**
 * `suspect reading: GPU 0 at 100 % with no memory held, 145 W (a known driver fault); not counted
 * busy, never stopped automatically`.
 */
export function suspectWords(gpus: readonly SuspectGpu[]): string {
  const shown = gpus.slice(0, 3).map((gpu) => {
    const memory = gpu.memUsedMiB === null ? "memory unknown" : "no memory held";
    const power = gpu.powerW === null ? "" : `, ${Math.round(gpu.powerW)} W`;
    return `GPU ${slotLabel(gpu.index)} at ${Math.round(gpu.utilPct)} % with ${memory}${power}`;
  });
  if (gpus.length > 3) shown.push(`${gpus.length - 3} more`);
  const what = gpus.length === 1 ? "suspect reading" : "suspect readings";
  return `${what}: ${shown.join("; ")} (a known driver fault); not counted busy, never stopped automatically`;
}

/** `8 GPUs at 0 %`, `6/8 GPUs busy, mean 73 %`, `no GPUs`. */
export function gpuWords(summary: HostSummary): string {
  if (summary.gpus === 0) return "no GPUs";
  const mean = summary.meanUtilPct === null ? "no reading" : `${Math.round(summary.meanUtilPct)} %`;
  const gpus = summary.gpus === 1 ? "1 GPU" : `${summary.gpus} GPUs`;
  if (summary.busyGpus === 0)
    return summary.meanUtilPct === null ? `${gpus}, no reading` : `${gpus} at ${mean}`;
  return `${summary.busyGpus}/${gpus} busy, mean ${mean}`;
}

const CLAIM_GROUPS_SHOWN = 3;

/** `claimed by @bob until 17:00`, `GPUs 0-3 claimed by @bob until 17:00, GPU 5 by @eve until 12:00`. */
export function claimsWords(claims: readonly Claim[], nowMs: number, zone: string): string {
  const groups = groupClaims(claims);
  const parts = groups.slice(0, CLAIM_GROUPS_SHOWN).map((group, i) => {
    const gpus =
      group.gpus === null ? "" : `${group.gpus.length === 1 ? "GPU" : "GPUs"} ${formatGpuList(group.gpus)} `;
    return `${gpus}${i === 0 ? "claimed by" : "by"} ${mention(group.user)} until ${localWhen(group.untilMs, nowMs, zone)}`;
  });
  const more = groups.length - CLAIM_GROUPS_SHOWN;
  return `${parts.join(", ")}${more > 0 ? ` and ${more} more claims` : ""}`;
}

/** `GPU 3 in use, unclaimed (bob)`: busy GPUs without a claim, with who runs on them where known. */
export function unclaimedWords(uses: readonly UnclaimedUse[]): string {
  const gpus = `${uses.length === 1 ? "GPU" : "GPUs"} ${formatGpuList(uses.map((use) => use.index))}`;
  const owners = [...new Set(uses.flatMap((use) => use.owners))].sort();
  return `${gpus} in use, unclaimed${owners.length === 0 ? "" : ` (${owners.map(slackEscape).join(", ")})`}`;
}
