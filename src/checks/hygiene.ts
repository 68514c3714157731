import type { HygieneFacts, HygieneFinding, HygieneOutcome } from "../domain/hygiene.ts";
import { DAY_MS } from "../shared/clock.ts";

/** The team's hygiene thresholds. */
export interface HygienePolicy {
  /** `ClientAliveInterval` above this (or unset) is flagged, seconds. */
  clientAliveMaxSeconds: number;
  /** A filesystem above this use is flagged, percent. */
  diskFullPct: number;
  /** Docker space reclaimable above this is flagged, bytes. */
  dockerReclaimableBytes: number;
  /** Images no container uses, created more than this long ago, are flagged, days. */
  imageUnusedDays: number;
  /** Login sessions idle at least this long are flagged, minutes. */
  sessionIdleMinutes: number;
}

/** What one check's facts come to under the policy at `nowMs`. Pure. */
export function hygieneOutcome(read: HygieneFacts, policy: HygienePolicy, nowMs: number): HygieneOutcome {
  switch (read.check) {
    case "sshd":
      return checked(sshdFindings(read.facts, policy));
    case "disk":
      return checked(
        read.facts
          .filter((fs) => fs.usedPct > policy.diskFullPct)
          .map((fs) => ({
            kind: "disk-full",
            mount: fs.mount,
            usedPct: fs.usedPct,
            availableKiB: fs.availableKiB,
          })),
      );
    case "docker":
      return read.facts.present
        ? checked(dockerFindings(read.facts, policy, nowMs))
        : { status: "not-applicable", why: "docker" };
    case "sessions":
      return checked(
        read.facts
          .filter((s) => s.idleMinutes !== null && s.idleMinutes >= policy.sessionIdleMinutes)
          .map((s) => ({
            kind: "idle-session",
            user: s.user,
            tty: s.line,
            from: s.from,
            idleMinutes: s.idleMinutes ?? 0,
          })),
      );
    case "containers":
      return read.facts.present
        ? checked(
            read.facts.containers
              .filter((c) => c.memoryBytes === 0)
              .map((c) => ({ kind: "container-no-memory-cap", container: c.name, image: c.image })),
          )
        : { status: "not-applicable", why: "docker" };
    default:
      return read satisfies never;
  }
}

function checked(findings: HygieneFinding[]): HygieneOutcome {
  return { status: "checked", findings };
}

function sshdFindings(
  facts: Extract<HygieneFacts, { check: "sshd" }>["facts"],
  policy: HygienePolicy,
): HygieneFinding[] {
  const seconds = facts.clientAliveSeconds;
  if (seconds !== null && seconds > 0 && seconds <= policy.clientAliveMaxSeconds) return [];
  return [
    {
      kind: "sshd-client-alive",
      seconds: seconds === 0 ? null : seconds,
      setAt: facts.via === "files" ? facts.at : null,
      configFile: facts.mainFile,
      add: `ClientAliveInterval ${policy.clientAliveMaxSeconds}`,
    },
  ];
}

function dockerFindings(
  facts: Extract<Extract<HygieneFacts, { check: "docker" }>["facts"], { present: true }>,
  policy: HygienePolicy,
  nowMs: number,
): HygieneFinding[] {
  const out: HygieneFinding[] = [];
  for (const row of facts.usage) {
    const what = row.type === "Images" ? "images" : row.type === "Build Cache" ? "build-cache" : null;
    if (what === null || !(row.reclaimableBytes > policy.dockerReclaimableBytes)) continue;
    const command = what === "images" ? "docker image prune -a" : "docker builder prune";
    out.push({ kind: "docker-reclaimable", what, reclaimableBytes: row.reclaimableBytes, command });
  }
  const used = new Set(facts.usedImageIds);
  const old = facts.images.filter(
    (image) => !used.has(image.id) && nowMs - image.createdAtMs > policy.imageUnusedDays * DAY_MS,
  );
  if (old.length > 0) {
    out.push({
      kind: "docker-old-images",
      count: old.length,
      bytes: old.reduce((sum, image) => sum + image.sizeBytes, 0),
      days: policy.imageUnusedDays,
      command: `docker image prune -a --filter "until=${policy.imageUnusedDays * 24}h"`,
    });
  }
  return out;
}

/**
 * What must change for a finding to be shown again: the setting and where it is, a disk's use in
 * steps of 5 %, Docker space in powers of two, the number of old images; a session or a container
 * stays the same finding while it lasts. Pure.
 */
export function hygieneFingerprint(finding: HygieneFinding): string {
  switch (finding.kind) {
    case "sshd-client-alive":
      return JSON.stringify([finding.seconds, finding.setAt]);
    case "disk-full":
      return String(Math.floor(finding.usedPct / 5));
    case "docker-reclaimable":
      return String(Math.floor(Math.log2(Math.max(1, finding.reclaimableBytes / 2 ** 30))));
    case "docker-old-images":
      return String(finding.count);
    case "idle-session":
    case "container-no-memory-cap":
      return "";
    default:
      return finding satisfies never;
  }
}
