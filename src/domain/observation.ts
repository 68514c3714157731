/**
 * What a source says about a host at one instant. Every reading that the source could not get is
 * `null` ("no reading"), never 0: unknown is never idle.
 */

export type SourceKind = "local" | "ssh" | "prometheus" | "simulated";

export interface GpuProcess {
  pid: number | null;
  /** Login name of the process owner, where the source knows it. */
  user: string | null;
  /** Process name or command as the source reports it. */
  name: string;
  usedMemoryMiB: number | null;
  /** Kubernetes attribution, where the source knows it. */
  container: string | null;
  pod: string | null;
  namespace: string | null;
  /** The workload's `project` label (Prometheus), where the source has one. */
  projectLabel?: string;
}

export interface GpuReading {
  index: number;
  uuid: string | null;
  model: string | null;
  utilPct: number | null;
  memUsedMiB: number | null;
  memTotalMiB: number | null;
  powerW: number | null;
  tempC: number | null;
  /** MIG mode on: nvidia-smi reports no utilisation; the reading is null unless a profiler metric gives it. */
  mig: boolean;
  processes: GpuProcess[];
}

export interface LoginSession {
  user: string;
  /** tty or line, e.g. `pts/0`. */
  line: string;
  /** Remote host or display, where known. */
  from: string | null;
  /** Minutes since last input, where the tool reports it. */
  idleMinutes: number | null;
}

/** Per-container usage against its requests (Kubernetes through Prometheus). */
export interface ContainerUsage {
  namespace: string;
  pod: string;
  container: string;
  cpuRequestCores: number | null;
  cpuUsageCores: number | null;
  gpuRequest: number | null;
}

export interface HostReadings {
  gpus: GpuReading[];
  /** `null` when the source cannot see login sessions (Prometheus); `[]` when it saw none. */
  sessions: LoginSession[] | null;
  /** 1-minute load average, where known. */
  cpuLoad1: number | null;
  /** Whole-host CPU busy share 0–100, where known. */
  cpuUtilPct: number | null;
  containers: ContainerUsage[];
}

export type FailureCause =
  | "timeout"
  | "unreachable"
  | "auth"
  | "command-not-found"
  | "driver-error"
  | "parse-error"
  | "http-error"
  | "stale"
  | "missing"
  | "error";

export type HostObservation =
  | ({ host: string; source: SourceKind; atMs: number; ok: true } & HostReadings)
  | {
      host: string;
      source: SourceKind;
      atMs: number;
      ok: false;
      cause: FailureCause;
      /** One line for people: names the host and says what went wrong. */
      message: string;
      /** When the host's latest real sample was taken, where the source knows it (Prometheus). */
      lastSampleAtMs?: number;
    };

export function failed(
  host: string,
  source: SourceKind,
  atMs: number,
  cause: FailureCause,
  message: string,
): HostObservation {
  return { host, source, atMs, ok: false, cause, message };
}
