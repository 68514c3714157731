import { groupClaims } from "../../../checks/claim-groups.ts";
import { formatGpuList } from "../../../checks/claim-target.ts";
import type { UnclaimedUse } from "../../../checks/claim-usage.ts";
import type { Claim } from "../../../domain/claim.ts";
import type { Translator } from "../../../messages/translator.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import type { HostSummary, SuspectGpu } from "../../../usecases/fleet/read-fleet-status.ts";
import { BOT_ACTOR, mention, slackEscape } from "../../../usecases/power/action-text.ts";
import { whenWords } from "../when-words.ts";

/** The board's groups, in the order shown: what needs a decision first (`id` names its messages). */
export const STATUS_GROUPS = [
  { id: "idle", statuses: ["idle"] },
  { id: "noData", statuses: ["unknown", "never-seen"] },
  { id: "suspect", statuses: ["suspect"] },
  { id: "goingIdle", statuses: ["idle-pending", "protected"] },
  { id: "kept", statuses: ["snoozed"] },
  { id: "inUse", statuses: ["busy"] },
  { id: "exempt", statuses: ["exempt"] },
] as const satisfies ReadonlyArray<{ id: string; statuses: ReadonlyArray<HostSummary["status"]> }>;

/** One of {@link STATUS_GROUPS}' ids. */
export type StatusGroupId = (typeof STATUS_GROUPS)[number]["id"];

/** A group's title: `Idle`, `No data`, … */
export function groupTitle(tr: Translator, id: StatusGroupId): string {
  return tr.t(`status.group.${id}`);
}

/** `3 idle`, `1 no data`, … */
export function groupCount(tr: Translator, id: StatusGroupId, count: number): string {
  return tr.t(`status.count.${id}`, { count });
}

/**
 * One host in a few words: `idle since 12:30 (2 h 5 min) · 8 GPUs at 0 % · claimed by @bob until
 * 17:00 · alert open`.
 */
export function hostWords(tr: Translator, summary: HostSummary, nowMs: number): string {
  const parts = [statusWords(tr, summary, nowMs)];
  const shownGpus =
    summary.status !== "unknown" && summary.status !== "never-seen" && summary.status !== "suspect";
  if (shownGpus) parts.push(gpuWords(tr, summary));
  if (summary.claims.length > 0) parts.push(claimsWords(tr, summary.claims, nowMs));
  if (summary.unclaimedBusy.length > 0) parts.push(unclaimedWords(tr, summary.unclaimedBusy));
  if (summary.openAlert !== null) {
    const autoStop = summary.openAlert.autoStopAtMs;
    parts.push(
      autoStop === null
        ? tr.t("status.alertOpen")
        : tr.t("status.autoStop", { at: whenWords(tr, autoStop, nowMs) }),
    );
  }
  return parts.join(" · ");
}

export function statusWords(tr: Translator, summary: HostSummary, nowMs: number): string {
  const when = (ms: number) => whenWords(tr, ms, nowMs);
  if (summary.stoppedBy != null) return stoppedWords(tr, summary.stoppedBy, nowMs);
  const idleSince =
    summary.idleSinceMs === null
      ? tr.t("status.idle")
      : tr.t("status.idleSince", {
          at: when(summary.idleSinceMs),
          duration: tr.duration(nowMs - summary.idleSinceMs),
        });
  switch (summary.status) {
    case "idle":
      return idleSince;
    case "idle-pending":
      return summary.idleSinceMs === null
        ? tr.t("status.goingIdle")
        : tr.t("status.idleFor", { duration: tr.duration(nowMs - summary.idleSinceMs) });
    case "protected":
      return tr.t("status.protected", { idle: idleSince });
    case "snoozed":
      return summary.snooze === null
        ? tr.t("status.kept")
        : tr.t("status.keptBy", {
            user: mention(summary.snooze.byUser),
            until: when(summary.snooze.untilMs),
          });
    case "busy":
      return summary.busyGpus === 0 && summary.activeUsers.length > 0
        ? tr.t("status.inUseLoggedIn", { users: summary.activeUsers.map(slackEscape).join(", ") })
        : tr.t("status.inUse");
    case "unknown": {
      const since =
        summary.lastOkAtMs === null
          ? tr.t("status.noDataYet")
          : tr.t("status.noDataSince", { at: when(summary.lastOkAtMs) });
      return summary.problem === null
        ? since
        : tr.t("status.problem", { since, problem: slackEscape(summary.problem) });
    }
    case "suspect":
      return suspectWords(tr, summary.suspectGpus);
    case "never-seen":
      return tr.t("status.noDataYet");
    case "exempt":
      return tr.t("status.neverStopped");
    default:
      return summary.status satisfies never;
  }
}

/**
 * `suspect reading: GPU 0 at 100 % with no memory held, 145 W (a known driver fault); not counted
 * busy, never stopped automatically`.
 */
export function suspectWords(tr: Translator, gpus: readonly SuspectGpu[]): string {
  const shown = gpus.slice(0, 3).map((gpu) =>
    tr.t("status.suspect.gpu", {
      gpu: slotLabel(gpu.index),
      pct: Math.round(gpu.utilPct),
      memory: tr.t(gpu.memUsedMiB === null ? "alert.suspect.memoryUnknown" : "alert.suspect.noMemory"),
      power: gpu.powerW === null ? "" : tr.t("status.suspect.power", { watts: Math.round(gpu.powerW) }),
    }),
  );
  if (gpus.length > 3) shown.push(tr.t("status.more", { count: gpus.length - 3 }));
  return tr.t("status.suspect", { count: gpus.length, gpus: shown.join("; ") });
}

/** `8 GPUs at 0 %`, `6/8 GPUs busy, mean 73 %`, `no GPUs`. */
export function gpuWords(tr: Translator, summary: HostSummary): string {
  if (summary.gpus === 0) return tr.t("status.gpus.none");
  const count = summary.gpus;
  const pct = summary.meanUtilPct === null ? null : Math.round(summary.meanUtilPct);
  if (summary.busyGpus === 0)
    return pct === null ? tr.t("status.gpus.noReading", { count }) : tr.t("status.gpus.at", { count, pct });
  const mean = pct === null ? tr.t("status.noReading") : `${pct} %`;
  return tr.t("status.gpus.busy", { busy: summary.busyGpus, count, mean });
}

const CLAIM_GROUPS_SHOWN = 3;

/** `claimed by @bob until 17:00`, `GPUs 0-3 claimed by @bob until 17:00, GPU 5 by @eve until 12:00`. */
export function claimsWords(tr: Translator, claims: readonly Claim[], nowMs: number): string {
  const groups = groupClaims(claims);
  const parts = groups.slice(0, CLAIM_GROUPS_SHOWN).map((group, i) => {
    const user = mention(group.user);
    const until = whenWords(tr, group.untilMs, nowMs);
    if (group.gpus === null)
      return tr.t(i === 0 ? "status.claim.host" : "status.claim.nextHost", { user, until });
    const gpus = formatGpuList(group.gpus);
    const count = group.gpus.length;
    return tr.t(i === 0 ? "status.claim.gpus" : "status.claim.nextGpus", { count, gpus, user, until });
  });
  const more = groups.length - CLAIM_GROUPS_SHOWN;
  const claimsText = parts.join(", ");
  return more > 0 ? tr.t("status.claim.more", { claims: claimsText, count: more }) : claimsText;
}

/** `GPU 3 in use, unclaimed (bob)`: busy GPUs without a claim, with who runs on them where known. */
export function unclaimedWords(tr: Translator, uses: readonly UnclaimedUse[]): string {
  const gpus = formatGpuList(uses.map((use) => use.index));
  const owners = [...new Set(uses.flatMap((use) => use.owners))].sort();
  const count = uses.length;
  return owners.length === 0
    ? tr.t("status.unclaimed", { count, gpus })
    : tr.t("status.unclaimedBy", { count, gpus, users: owners.map(slackEscape).join(", ") });
}

/** `stopped since 10:05 by @alice` (or automatically): a host the bot stopped, instead of "no data". */
export function stoppedWords(
  tr: Translator,
  stopped: { atMs: number; actor: string },
  nowMs: number,
): string {
  const at = whenWords(tr, stopped.atMs, nowMs);
  return stopped.actor === BOT_ACTOR
    ? tr.t("start.status.stoppedAuto", { at })
    : tr.t("start.status.stoppedBy", { at, user: mention(stopped.actor) });
}
