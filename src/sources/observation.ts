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

/** A metric source: one poll returns one observation per host it knows, failures included. */
export interface Source {
  readonly kind: SourceKind;
  /** Host names this source is expected to report (empty when discovered, as with Prometheus). */
  readonly hosts: readonly string[];
  poll(signal: AbortSignal): Promise<HostObservation[]>;
}

/** A stretch of the past a source is asked about: one step at `fromMs, fromMs + stepMs, …` up to `toMs`. */
export interface HistoryRequest {
  fromMs: number;
  toMs: number;
  stepMs: number;
}

/**
 * A host's utilisation over a grid of steps, step `i` at `fromMs + i × stepMs`: the highest utilisation %
 * of its busiest GPU within the step that ends there (`[t − stepMs, t]`), so a step is idle only when every
 * sample of every GPU in it was. `NaN`: no sample at all in the step (a gap); {@link SOME_GPU_SILENT}:
 * some GPU the host had within the request had no sample in the step (unknown). Never 0 for no data.
 */
export interface HostUtilHistory {
  fromMs: number;
  stepMs: number;
  utilPct: Float64Array;
}

/** In {@link HostUtilHistory}: a step where some of the host's GPUs reported and some did not. */
export const SOME_GPU_SILENT = -1;

/**
 * A source that keeps history (Prometheus). Both calls send a few fleet-wide queries, never one per host.
 * Processes, sessions, containers, memory and power are not part of history.
 */
export interface HistorySource extends Source {
  /**
   * What polls would have seen at each step: ok observations in time order; a host without data at a
   * step has no observation there (a gap: unknown, never idle).
   */
  history(request: HistoryRequest, signal: AbortSignal): Promise<HostObservation[]>;
  /** Each host's busiest-GPU utilisation per step, for long look-backs (compact: one number a step). */
  busiestHistory(request: HistoryRequest, signal: AbortSignal): Promise<Map<string, HostUtilHistory>>;
  /** How far back `busiestHistory` is meant to be asked (the source's configured look-back), ms; 0: not at all. */
  readonly historyLookbackMs: number;
  /** Range queries sent by the last `history` or `busiestHistory` call. */
  readonly lastHistoryQueryCount: number;
}

export function hasHistory(source: Source): source is HistorySource {
  return "history" in source && typeof source.history === "function";
}

export function failed(
  host: string,
  source: SourceKind,
  atMs: number,
  cause: FailureCause,
  message: string,
): HostObservation {
  return { host, source, atMs, ok: false, cause, message };
}
