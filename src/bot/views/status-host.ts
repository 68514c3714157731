import type { types } from "@slack/bolt";
import { shortModel } from "../../reports/fleet-table.ts";
import { slotLabel } from "../../shared/gpu-slot.ts";
import type { GpuReading, HostObservation } from "../../sources/observation.ts";
import type { AuditEntry } from "../../store/audit-store.ts";
import { localWhen, mention, slackEscape } from "../../usecases/action-text.ts";
import type { HostDetail } from "../../usecases/read-fleet-status.ts";
import { clip, context, type Reply, section } from "./reply-message.ts";
import { hostWords } from "./status-words.ts";

const PROCESSES_PER_GPU = 3;
const GPU_LINE_MAX_CHARS = 180;

/**
 * One host in detail: status, owners and stop action; per GPU utilisation, memory and the processes
 * holding it; sessions; claims, keep and alert; the latest audit entries.
 */
export function renderHostStatus(detail: HostDetail, nowMs: number, zone: string): Reply {
  const when = (ms: number) => localWhen(ms, nowMs, zone);
  const blocks: types.KnownBlock[] = [
    section(`*${detail.host}* · ${hostWords(detail, nowMs, zone)}\n${setupWords(detail)}`),
  ];
  const observation = detail.observation;
  if (observation?.ok) {
    const holders = new Map(
      detail.claims.flatMap((claim) =>
        claim.gpuIndex === null ? [] : [[claim.gpuIndex, claim.user] as const],
      ),
    );
    const unclaimed = new Set(detail.unclaimedBusy.map((use) => use.index));
    const suspect = new Set(detail.suspectGpus.map((gpu) => gpu.index));
    const gpus = observation.gpus.map((gpu) => {
      const holder = holders.get(gpu.index);
      const tags = [
        suspect.has(gpu.index) ? `suspect: no memory at ${Math.round(gpu.powerW ?? 0)} W` : null,
        holder !== undefined
          ? `claimed by ${mention(holder)}`
          : unclaimed.has(gpu.index)
            ? "in use, unclaimed"
            : null,
      ].filter((tag) => tag !== null);
      return clip(gpuLine(gpu, tags.length === 0 ? null : tags.join(" · ")), GPU_LINE_MAX_CHARS);
    });
    blocks.push(section(gpus.length === 0 ? "No GPUs reported." : gpus.join("\n")));
    blocks.push(section(sessionWords(observation)));
  } else if (observation !== null) {
    blocks.push(
      section(`Latest poll at ${when(observation.atMs)} failed: ${slackEscape(observation.message)}`),
    );
  }
  const state = stateWords(detail, when);
  if (state.length > 0) blocks.push(section(state.join("\n")));
  if (detail.recentAudit.length > 0) {
    blocks.push(context(`Recent: ${detail.recentAudit.map((entry) => auditWords(entry, when)).join(" · ")}`));
  }
  return { text: `${detail.host}: ${hostWords(detail, nowMs, zone)}`, blocks };
}

function setupWords(detail: HostDetail): string {
  const owners = detail.settings?.owners ?? [];
  const parts = [owners.length === 0 ? "No owners configured" : `Owners: ${owners.map(mention).join(", ")}`];
  if (detail.settings?.never_stop === true) parts.push("never stopped (`never_stop`)");
  else if (detail.stopAction === null) parts.push("no stop action configured");
  else parts.push(`Stop runs \`${slackEscape(detail.stopAction)}\`${detail.dryRun ? " (dry run)" : ""}`);
  if (detail.warden !== null) parts.push(`cost warden: ${mention(detail.warden)}`);
  return parts.join(" · ");
}

/** `GPU 0 · H100 80GB HBM3 · 3 % · 12.0/79.6 GiB · claimed by @bob · python (alice, 12.0 GiB)`. */
function gpuLine(gpu: GpuReading, tag: string | null): string {
  const util =
    gpu.utilPct === null ? (gpu.mig ? "no reading (MIG)" : "no reading") : `${Math.round(gpu.utilPct)} %`;
  const memory =
    gpu.memUsedMiB === null
      ? "memory unknown"
      : `${gib(gpu.memUsedMiB)}${gpu.memTotalMiB === null ? "" : `/${gib(gpu.memTotalMiB)}`} GiB`;
  const parts = [`\`GPU ${slotLabel(gpu.index)}\``, slackEscape(shortModel(gpu.model)), util, memory];
  if (tag !== null) parts.push(tag);
  if (gpu.processes.length > 0) {
    const shown = gpu.processes.slice(0, PROCESSES_PER_GPU).map((process) => {
      const owner = process.user ?? process.pod ?? "?";
      const memory = process.usedMemoryMiB === null ? "" : `, ${gib(process.usedMemoryMiB)} GiB`;
      return `${slackEscape(process.name)} (${slackEscape(owner)}${memory})`;
    });
    const more = gpu.processes.length - shown.length;
    parts.push(`${shown.join(", ")}${more > 0 ? ` +${more} more` : ""}`);
  }
  return parts.join(" · ");
}

function sessionWords(observation: Extract<HostObservation, { ok: true }>): string {
  if (observation.sessions === null) return "Sessions: not visible to this source.";
  if (observation.sessions.length === 0) return "Sessions: none.";
  const sessions = observation.sessions.slice(0, 10).map((session) => {
    const from = session.from === null ? "" : ` from ${slackEscape(session.from)}`;
    const idle = session.idleMinutes === null ? "" : `, idle ${session.idleMinutes} min`;
    return `${slackEscape(session.user)} on ${slackEscape(session.line)}${from}${idle}`;
  });
  const more = observation.sessions.length - sessions.length;
  return `Sessions: ${sessions.join("; ")}${more > 0 ? `; +${more} more` : ""}.`;
}

function stateWords(detail: HostDetail, when: (ms: number) => string): string[] {
  const lines: string[] = [];
  for (const claim of detail.claims) {
    const what = claim.gpuIndex === null ? "whole host" : `GPU ${slotLabel(claim.gpuIndex)}`;
    const note = claim.note === "" ? "" : ` (${slackEscape(claim.note)})`;
    lines.push(`Claimed (${what}) by ${mention(claim.user)} until ${when(claim.untilMs)}${note}`);
  }
  if (detail.snooze !== null) {
    lines.push(`Kept by ${mention(detail.snooze.byUser)} until ${when(detail.snooze.untilMs)}`);
  }
  const alert = detail.latestAlert;
  if (alert !== null && alert.kind === "idle") {
    if (alert.state === "open") {
      const autoStop = alert.autoStopAtMs === null ? "" : ` · auto-stop at ${when(alert.autoStopAtMs)}`;
      lines.push(`Idle alert open since ${when(alert.openedAtMs)}${autoStop}`);
    } else if (alert.resolvedAtMs !== null) {
      lines.push(`Latest idle alert: resolved (${alert.resolution ?? "?"}) at ${when(alert.resolvedAtMs)}`);
    }
  }
  return lines;
}

/** `14:05 @alice stop (exit 0)`. */
function auditWords(entry: AuditEntry, when: (ms: number) => string): string {
  const flags = [
    entry.exitCode === null ? null : `exit ${entry.exitCode}`,
    entry.forced ? "forced" : null,
    entry.dryRun ? "dry run" : null,
  ].filter((flag) => flag !== null);
  return `${when(entry.atMs)} ${mention(entry.actor)} ${entry.action}${flags.length > 0 ? ` (${flags.join(", ")})` : ""}`;
}

function gib(mib: number): string {
  return (mib / 1024).toFixed(1);
}
