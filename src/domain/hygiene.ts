import type { LoginSession } from "./observation.ts";

/**
 * Host hygiene: the forgotten settings that keep GPUs busy for nothing, as the weekly check and
 * `gpu-warden hygiene` find them. Read-only facts; the words are the surfaces'.
 */

/** The checks, each run on its own with its own timeout. */
export type HygieneCheck = "sshd" | "disk" | "docker" | "sessions" | "containers";

export const HYGIENE_CHECKS: readonly HygieneCheck[] = ["sshd", "disk", "docker", "sessions", "containers"];

/** One thing to fix on one host, with what to do about it. */
export type HygieneFinding =
  | {
      kind: "sshd-client-alive";
      /** The effective `ClientAliveInterval` in seconds; `null` when unset (0: never). */
      seconds: number | null;
      /** The configuration file and line that sets it; `null` when unset or read with `sshd -T`. */
      setAt: { file: string; line: number } | null;
      /** The main configuration file, where the line goes. */
      configFile: string;
      /** The exact line to add (or to put in place of `setAt`). */
      add: string;
    }
  | { kind: "disk-full"; mount: string; usedPct: number; availableKiB: number }
  | { kind: "docker-reclaimable"; what: "images" | "build-cache"; reclaimableBytes: number; command: string }
  | { kind: "docker-old-images"; count: number; bytes: number; days: number; command: string }
  | { kind: "idle-session"; user: string; tty: string; from: string | null; idleMinutes: number }
  | { kind: "container-no-memory-cap"; container: string; image: string };

/** What one check on one host came to: findings, nothing to fix, or could not check (never "fine"). */
export type HygieneOutcome =
  | { status: "checked"; findings: HygieneFinding[] }
  | { status: "not-applicable"; why: string }
  | { status: "could-not-check"; why: ProbeFailure };

export interface HygieneResult {
  host: string;
  check: HygieneCheck;
  outcome: HygieneOutcome;
}

/** A stable key for a finding on a host: the same problem keeps its key while its details change. */
export function hygieneKey(finding: HygieneFinding): string {
  switch (finding.kind) {
    case "sshd-client-alive":
      return finding.kind;
    case "disk-full":
      return `${finding.kind}:${finding.mount}`;
    case "docker-reclaimable":
      return `${finding.kind}:${finding.what}`;
    case "docker-old-images":
      return finding.kind;
    case "idle-session":
      return `${finding.kind}:${finding.user}:${finding.tty}`;
    case "container-no-memory-cap":
      return `${finding.kind}:${finding.container}`;
    default:
      return finding satisfies never;
  }
}

/** What a host's sshd says about `ClientAliveInterval`. */
export type SshdFacts =
  | { via: "sshd -T"; clientAliveSeconds: number | null; mainFile: string }
  | {
      via: "files";
      clientAliveSeconds: number | null;
      at: { file: string; line: number } | null;
      mainFile: string;
    };

/** A mounted filesystem as `df -P -k` shows it. */
export interface DiskFacts {
  mount: string;
  usedPct: number;
  availableKiB: number;
}

/** `docker system df` and the images, or no Docker on the host. */
export type DockerFacts =
  | { present: false }
  | {
      present: true;
      /** Per row of `docker system df` (`Images`, `Build Cache`…). */
      usage: { type: string; sizeBytes: number; reclaimableBytes: number }[];
      images: { id: string; createdAtMs: number; sizeBytes: number }[];
      /** Image ids any container (running or stopped) was made from. */
      usedImageIds: string[];
    };

/** The running containers and their memory caps (0: none), or no Docker on the host. */
export type ContainerFacts =
  | { present: false }
  | { present: true; containers: { name: string; image: string; memoryBytes: number }[] };

/** What one check read on one host. */
export type HygieneFacts =
  | { check: "sshd"; facts: SshdFacts }
  | { check: "disk"; facts: DiskFacts[] }
  | { check: "docker"; facts: DockerFacts }
  | { check: "sessions"; facts: LoginSession[] }
  | { check: "containers"; facts: ContainerFacts };

/** Why a check could not read a host: no answer in time, no shell for it, or the tools failed. */
export type ProbeFailure =
  | { cause: "timeout"; seconds: number }
  | { cause: "no-access" }
  | { cause: "failed"; detail: string };

/** Reads one check's facts on one host, read-only, within `timeoutMs`. */
export interface HygieneProbe {
  /** The hosts it can reach (ssh and local sources). */
  hosts: string[];
  probe(
    host: string,
    check: HygieneCheck,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ ok: true; facts: HygieneFacts } | { ok: false; why: ProbeFailure }>;
}

/** What the hygiene memory keeps per host and key: a finding, or that a check could not run. */
export type HygieneItem =
  | { kind: "finding"; finding: HygieneFinding }
  | { kind: "could-not-check"; why: ProbeFailure };

/** An open item as a surface shows it. */
export interface StoredHygieneItem {
  host: string;
  key: string;
  check: HygieneCheck;
  item: HygieneItem;
  /** When it appeared or last changed. */
  changedMs: number;
}

/** The surfaces that show each item once until it changes. */
export type HygieneSurface = "warden" | "summary";

/** One check's outcome on one host, keyed and fingerprinted by the caller. */
export interface HygieneCheckRecord {
  host: string;
  check: HygieneCheck;
  /** `checked` (or not applicable): items not listed are resolved; `unknown`: the findings are kept as they were. */
  status: "checked" | "unknown";
  items: { key: string; fingerprint: string; item: HygieneItem }[];
}
