import type { types } from "@slack/bolt";
import type { AuditEntry } from "../../../domain/audit-entry.ts";
import type { GpuReading, HostObservation } from "../../../domain/observation.ts";
import type { Translator } from "../../../messages/translator.ts";
import { shortModel } from "../../../reports/fleet-table.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import type { HostDetail } from "../../../usecases/fleet/read-fleet-status.ts";
import { mention, slackEscape } from "../../../usecases/power/action-text.ts";
import { clip, context, type Reply, section } from "../reply-message.ts";
import { whenWords } from "../when-words.ts";
import { hostWords } from "./status-words.ts";

const PROCESSES_PER_GPU = 3;
const GPU_LINE_MAX_CHARS = 180;

/**
 * One host in detail: status, owners and stop action; per GPU utilisation, memory and the processes
 * holding it; sessions; claims, keep and alert; the latest audit entries.
 */
export function renderHostStatus(tr: Translator, detail: HostDetail, nowMs: number): Reply {
  const when = (ms: number) => whenWords(tr, ms, nowMs);
  const blocks: types.KnownBlock[] = [
    section(`*${detail.host}* · ${hostWords(tr, detail, nowMs)}\n${setupWords(tr, detail)}`),
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
        suspect.has(gpu.index) ? tr.t("status.gpu.suspect", { watts: Math.round(gpu.powerW ?? 0) }) : null,
        holder !== undefined
          ? tr.t("status.gpu.claimedBy", { user: mention(holder) })
          : unclaimed.has(gpu.index)
            ? tr.t("status.gpu.unclaimed")
            : null,
      ].filter((tag) => tag !== null);
      return clip(gpuLine(tr, gpu, tags.length === 0 ? null : tags.join(" · ")), GPU_LINE_MAX_CHARS);
    });
    blocks.push(section(gpus.length === 0 ? tr.t("status.gpu.none") : gpus.join("\n")));
    blocks.push(section(sessionWords(tr, observation)));
  } else if (observation !== null) {
    const message = slackEscape(observation.message);
    blocks.push(section(tr.t("status.pollFailed", { at: when(observation.atMs), message })));
  }
  const state = stateWords(tr, detail, when);
  if (state.length > 0) blocks.push(section(state.join("\n")));
  if (detail.recentAudit.length > 0) {
    const entries = detail.recentAudit.map((entry) => auditWords(tr, entry, when)).join(" · ");
    blocks.push(context(tr.t("status.recent", { entries })));
  }
  return { text: `${detail.host}: ${hostWords(tr, detail, nowMs)}`, blocks };
}

function setupWords(tr: Translator, detail: HostDetail): string {
  const owners = detail.settings?.owners ?? [];
  const parts = [
    owners.length === 0
      ? tr.t("status.host.noOwners")
      : tr.t("status.host.owners", { names: owners.map(mention).join(", ") }),
  ];
  if (detail.settings?.never_stop === true) parts.push(tr.t("status.host.neverStop"));
  else if (detail.stopAction === null) parts.push(tr.t("status.host.noStopAction"));
  else {
    const action = `\`${slackEscape(detail.stopAction)}\``;
    parts.push(tr.t(detail.dryRun ? "status.host.stopRunsDryRun" : "status.host.stopRuns", { action }));
  }
  if (detail.warden !== null) parts.push(tr.t("status.host.warden", { user: mention(detail.warden) }));
  return parts.join(" · ");
}

/** `GPU 0 · H100 80GB HBM3 · 3 % · 12.0/79.6 GiB · claimed by @bob · python (alice, 12.0 GiB)`. */
function gpuLine(tr: Translator, gpu: GpuReading, tag: string | null): string {
  const util =
    gpu.utilPct === null
      ? tr.t(gpu.mig ? "status.gpu.noReadingMig" : "status.noReading")
      : `${Math.round(gpu.utilPct)} %`;
  const memory =
    gpu.memUsedMiB === null
      ? tr.t("status.gpu.memoryUnknown")
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
    if (more > 0) shown.push(tr.t("status.gpu.more", { count: more }));
    parts.push(shown.join(", "));
  }
  return parts.join(" · ");
}

function sessionWords(tr: Translator, observation: Extract<HostObservation, { ok: true }>): string {
  if (observation.sessions === null) return tr.t("status.sessions.hidden");
  if (observation.sessions.length === 0) return tr.t("status.sessions.none");
  const sessions = observation.sessions.slice(0, 10).map((session) =>
    tr.t("status.session", {
      user: slackEscape(session.user),
      line: slackEscape(session.line),
      from: session.from === null ? "" : tr.t("status.session.from", { from: slackEscape(session.from) }),
      idle:
        session.idleMinutes === null
          ? ""
          : tr.t("status.session.idle", { duration: tr.duration(session.idleMinutes * 60_000) }),
    }),
  );
  const more = observation.sessions.length - sessions.length;
  if (more > 0) sessions.push(tr.t("status.gpu.more", { count: more }));
  return tr.t("status.sessions.list", { list: sessions.join("; ") });
}

function stateWords(tr: Translator, detail: HostDetail, when: (ms: number) => string): string[] {
  const lines: string[] = [];
  for (const claim of detail.claims) {
    const note = claim.note === "" ? "" : ` (${slackEscape(claim.note)})`;
    const user = mention(claim.user);
    const until = when(claim.untilMs);
    lines.push(
      claim.gpuIndex === null
        ? tr.t("status.claimedHost", { user, until, note })
        : tr.t("status.claimedGpu", { gpu: slotLabel(claim.gpuIndex), user, until, note }),
    );
  }
  if (detail.snooze !== null) {
    const until = when(detail.snooze.untilMs);
    lines.push(tr.t("status.keptUntil", { user: mention(detail.snooze.byUser), until }));
  }
  const alert = detail.latestAlert;
  if (alert !== null && alert.kind === "idle") {
    if (alert.state === "open") {
      const since = tr.t("status.alertSince", { at: when(alert.openedAtMs) });
      const autoStop = alert.autoStopAtMs;
      lines.push(autoStop === null ? since : `${since} · ${tr.t("status.autoStop", { at: when(autoStop) })}`);
    } else if (alert.resolvedAtMs !== null) {
      const resolution = alert.resolution ?? "?";
      lines.push(tr.t("status.alertResolved", { resolution, at: when(alert.resolvedAtMs) }));
    }
  }
  return lines;
}

/** `14:05 @alice stop (exit 0)`. */
function auditWords(tr: Translator, entry: AuditEntry, when: (ms: number) => string): string {
  const flags = [
    entry.exitCode === null ? null : tr.t("status.audit.exit", { code: entry.exitCode }),
    entry.forced ? tr.t("status.audit.forced") : null,
    entry.dryRun ? tr.t("status.audit.dryRun") : null,
  ].filter((flag) => flag !== null);
  return `${when(entry.atMs)} ${mention(entry.actor)} ${entry.action}${flags.length > 0 ? ` (${flags.join(", ")})` : ""}`;
}

function gib(mib: number): string {
  return (mib / 1024).toFixed(1);
}
