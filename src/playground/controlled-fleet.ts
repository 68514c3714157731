import { failed, type GpuReading, type HostObservation } from "../domain/observation.ts";
import { SimulatedFleet, type SimulatedFleetOptions } from "../sources/simulated-fleet.ts";

/**
 * What a playground host does: its scripted day (`scripted`), or what a person set in the fleet
 * panel: GPUs busy, GPUs idle, no data at all (`silent`), or powered off by a stop (`off`).
 */
export type HostMode = "scripted" | "busy" | "idle" | "silent" | "off";

export const HOST_MODES: readonly HostMode[] = ["scripted", "busy", "idle", "silent", "off"];

const HOUR_MS = 3_600_000;

/**
 * The simulated fleet with a hand on each host: a mode set here overrides the script from then on
 * (and in the history written after a clock jump). Every poll, backfill and panel read goes
 * through {@link ControlledFleet.observe}, so the bot sees exactly what the panel shows.
 */
export class ControlledFleet extends SimulatedFleet {
  readonly #modes = new Map<string, HostMode>();
  readonly #templates = new Map<string, Extract<HostObservation, { ok: true }>>();
  #version = 0;

  constructor(options: SimulatedFleetOptions) {
    super(options);
  }

  mode(host: string): HostMode {
    return this.#modes.get(host) ?? "scripted";
  }

  /** Bumped at every change of mode (the page re-reads the panel). */
  get version(): number {
    return this.#version;
  }

  setMode(host: string, mode: HostMode): void {
    if (this.host(host) === undefined) throw new Error(`no simulated host named ${host}`);
    this.#modes.set(host, mode);
    this.#version++;
  }

  override observe(atMs: number): HostObservation[] {
    return super.observe(atMs).map((observation) => this.#apply(observation));
  }

  override observeHost(name: string, atMs: number): HostObservation {
    return this.#apply(super.observeHost(name, atMs));
  }

  #apply(observation: HostObservation): HostObservation {
    const { host, atMs } = observation;
    const mode = this.mode(host);
    switch (mode) {
      case "scripted":
        return observation;
      case "off":
        return failed(
          host,
          "simulated",
          atMs,
          "unreachable",
          `${host}: unreachable: powered off (simulated stop)`,
        );
      case "silent":
        return failed(
          host,
          "simulated",
          atMs,
          "timeout",
          `${host}: no answer (data switched off in the playground)`,
        );
      case "busy":
      case "idle": {
        const template = this.#template(host, observation);
        const minute = Math.floor(atMs / 60_000);
        const gpus = template.gpus.map((gpu) =>
          mode === "busy" ? busyGpu(gpu, host, minute) : idleGpu(gpu),
        );
        return {
          ...template,
          atMs,
          gpus,
          sessions: [],
          cpuLoad1: mode === "busy" ? 6.5 : 0.05,
          cpuUtilPct: mode === "busy" ? 38 : 1,
        };
      }
      default:
        return mode satisfies never;
    }
  }

  /** A reading of the host to shape busy/idle ones from (models, memory, uuids). */
  #template(host: string, observation: HostObservation): Extract<HostObservation, { ok: true }> {
    if (observation.ok) this.#templates.set(host, observation);
    const known = this.#templates.get(host);
    if (known !== undefined) return known;
    for (let back = 1; back <= 72; back++) {
      const earlier = super.observeHost(host, observation.atMs - back * HOUR_MS);
      if (earlier.ok) {
        this.#templates.set(host, earlier);
        return earlier;
      }
    }
    throw new Error(`simulated host ${host} never answered in the last 72 h`);
  }
}

function busyGpu(gpu: GpuReading, host: string, minute: number): GpuReading {
  const wobble = (minute * 7 + gpu.index * 13 + host.length) % 11;
  const memTotalMiB = gpu.memTotalMiB ?? 81_920;
  return {
    ...gpu,
    utilPct: 86 + wobble,
    memUsedMiB: Math.round(memTotalMiB * 0.78),
    powerW: 310 + wobble * 4,
    tempC: 71 + (wobble % 5),
    processes: [
      {
        pid: 40_000 + gpu.index,
        user: "bob",
        name: "python train.py",
        usedMemoryMiB: Math.round(memTotalMiB * 0.77),
        container: null,
        pod: null,
        namespace: null,
      },
    ],
  };
}

function idleGpu(gpu: GpuReading): GpuReading {
  return { ...gpu, utilPct: 0, memUsedMiB: 0, powerW: 62, tempC: 34, processes: [] };
}
