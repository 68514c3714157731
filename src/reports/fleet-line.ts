import type { HostStatus, IdleEpisodeState } from "../checks/idle-episode.ts";
import { formatDuration } from "../shared/duration.ts";
import { formatLocal } from "../shared/time.ts";

/**
 * One console line per poll for people running the bot without Slack:
 * `17:10 · 12 hosts: 5 busy, 3 idle, 1 unknown · idle: gpu-c 2 h 10 min, gpu-f 45 min · no data: gpu-k`.
 */
export function fleetLine(
  states: ReadonlyMap<string, IdleEpisodeState>,
  nowMs: number,
  timezone: string,
): string {
  const counts = new Map<string, number>();
  const idle: string[] = [];
  const unknown: string[] = [];
  for (const [host, state] of [...states].sort(([a], [b]) => a.localeCompare(b))) {
    const label = LABELS[state.status];
    counts.set(label, (counts.get(label) ?? 0) + 1);
    if (state.status === "idle" && state.idleSinceMs !== null) {
      idle.push(`${host} ${formatDuration(nowMs - state.idleSinceMs)}`);
    }
    if (state.status === "unknown") unknown.push(host);
  }
  const summary = ORDER.filter((label) => counts.has(label))
    .map((label) => `${counts.get(label)} ${label}`)
    .join(", ");
  const parts = [`${formatLocal(nowMs, timezone, "HH:mm")} · ${states.size} hosts: ${summary || "none"}`];
  if (idle.length > 0) parts.push(`idle: ${idle.join(", ")}`);
  if (unknown.length > 0) parts.push(`no data: ${unknown.join(", ")}`);
  return parts.join(" · ");
}

const LABELS: Record<HostStatus, string> = {
  busy: "busy",
  "idle-pending": "going idle",
  idle: "idle",
  suspect: "suspect",
  unknown: "unknown",
  protected: "protected",
  snoozed: "kept",
  exempt: "never stopped",
};
const ORDER = ["busy", "going idle", "idle", "protected", "kept", "never stopped", "suspect", "unknown"];
