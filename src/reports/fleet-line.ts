import type { HostStatus, IdleEpisodeState } from "../checks/idle-episode.ts";
import type { MessageId } from "../messages/catalog.ts";
import type { Translator } from "../messages/translator.ts";

/**
 * One console line per poll for people running the bot without Slack, in `tr`'s language and zone:
 * `17:10 · 12 hosts: 5 busy, 3 idle, 1 unknown · idle: gpu-c 2 h 10 min, gpu-f 45 min · no data: gpu-k`.
 */
export function fleetLine(
  tr: Translator,
  states: ReadonlyMap<string, IdleEpisodeState>,
  nowMs: number,
): string {
  const counts = new Map<HostStatus, number>();
  const idle: string[] = [];
  const unknown: string[] = [];
  for (const [host, state] of [...states].sort(([a], [b]) => a.localeCompare(b))) {
    counts.set(state.status, (counts.get(state.status) ?? 0) + 1);
    if (state.status === "idle" && state.idleSinceMs !== null) {
      idle.push(`${host} ${tr.duration(nowMs - state.idleSinceMs)}`);
    }
    if (state.status === "unknown") unknown.push(host);
  }
  const summary = ORDER.filter((status) => counts.has(status))
    .map((status) =>
      tr.t("collect.line.count", { count: counts.get(status) ?? 0, label: tr.t(LABELS[status]) }),
    )
    .join(", ");
  const hosts = tr.t("collect.line.hosts", {
    count: states.size,
    summary: summary || tr.t("collect.line.noHosts"),
  });
  const parts = [`${tr.date(nowMs, "time")} · ${hosts}`];
  if (idle.length > 0) parts.push(tr.t("collect.line.idle", { hosts: idle.join(", ") }));
  if (unknown.length > 0) parts.push(tr.t("collect.line.noData", { hosts: unknown.join(", ") }));
  return parts.join(" · ");
}

const LABELS = {
  busy: "collect.status.busy",
  "idle-pending": "collect.status.idlePending",
  idle: "collect.status.idle",
  suspect: "collect.status.suspect",
  unknown: "collect.status.unknown",
  protected: "collect.status.protected",
  snoozed: "collect.status.kept",
  exempt: "collect.status.exempt",
} as const satisfies Record<HostStatus, MessageId>;
const ORDER: readonly HostStatus[] = [
  "busy",
  "idle-pending",
  "idle",
  "protected",
  "snoozed",
  "exempt",
  "suspect",
  "unknown",
];
