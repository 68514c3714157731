import type { GpuProcess, GpuReading, HostReadings, LoginSession } from "../domain/observation.ts";
import { MINUTE_MS } from "../shared/clock.ts";
import type { Session, SimulatedHostSpec, Work } from "./simulated-activity.ts";
import { hash4, signed4, unit4 } from "./simulated-random.ts";

/** The instant being simulated, with the calendar facts every host needs. */
export interface Moment {
  atMs: number;
  /** Local day number in the team's zone. */
  day: number;
  /** Minutes since the epoch: the noise changes once a minute. */
  minute: number;
  /** Hours since local midnight, fractional. */
  hourOfDay: number;
}

const SALT_UTIL = 11;
const SALT_POWER = 12;
const SALT_TEMP = 13;
const SALT_LOAD = 14;
const SALT_IDLE_INPUT = 15;
const SALT_TEMP_OFFSET = 16;

/**
 * What `nvidia-smi` and `who` would show on a reachable host at `moment`, given the work and
 * sessions planned for it. Memory never exceeds the card; power never exceeds its limit.
 */
export function hostReadings(
  seed: number,
  host: SimulatedHostSpec,
  uuids: readonly string[],
  planned: readonly Work[],
  plannedSessions: readonly Session[],
  moment: Moment,
): HostReadings {
  const { atMs } = moment;
  const active = planned.filter((w) => w.startMs <= atMs && atMs < w.endMs);
  const { model } = host;
  const gpus: GpuReading[] = [];
  let cpuLoad = 0.05 + 0.15 * unit4(seed, host.index, moment.minute, SALT_LOAD);
  for (const w of active) cpuLoad += cpuLoadOf(w);
  for (let g = 0; g < host.gpuCount; g++) {
    let utilPct = 0;
    let memUsedMiB = model.idleMemUsedMiB;
    const processes: GpuProcess[] = [];
    for (const w of active) {
      if (g < w.gpuFrom || g >= w.gpuTo) continue;
      utilPct = Math.max(utilPct, utilOf(w, seed, host.index, g, moment));
      const usedMemoryMiB = Math.min(w.memMiBPerGpu, model.memTotalMiB - memUsedMiB);
      memUsedMiB += usedMemoryMiB;
      processes.push({
        pid: w.pid + (g - w.gpuFrom),
        user: w.user,
        name: w.processName,
        usedMemoryMiB,
        container: null,
        pod: null,
        namespace: null,
      });
    }
    const powerNoise = signed4(seed, host.index, moment.minute, g * 32 + SALT_POWER);
    const tempNoise = signed4(seed, host.index, moment.minute, g * 32 + SALT_TEMP);
    const slotOffsetC = Math.floor(unit4(seed, host.index, g, SALT_TEMP_OFFSET) * 5) - 1;
    let powerW: number;
    let tempC: number;
    if (utilPct > 0) {
      const span = model.powerLimitW * 0.96 - model.heldPowerW;
      powerW = Math.min(
        model.powerLimitW,
        model.heldPowerW + span * (utilPct / 100) + powerNoise * model.powerLimitW * 0.015,
      );
      tempC = model.idleTempC + (model.busyTempC - model.idleTempC) * (utilPct / 100) + 2 * tempNoise;
    } else if (processes.length > 0) {
      powerW = model.heldPowerW + 3 * powerNoise;
      tempC = model.idleTempC + 3 + tempNoise;
    } else {
      powerW = model.idlePowerW + 2 * powerNoise;
      tempC = model.idleTempC + tempNoise;
    }
    gpus.push({
      index: g,
      uuid: uuids[g] ?? null,
      model: model.name,
      utilPct,
      memUsedMiB,
      memTotalMiB: model.memTotalMiB,
      powerW: Math.round(powerW * 100) / 100,
      tempC: Math.round(tempC) + slotOffsetC,
      mig: false,
      processes,
    });
  }
  const sessions: LoginSession[] = [];
  for (const s of plannedSessions) {
    if (s.startMs > atMs || atMs >= s.endMs) continue;
    sessions.push({
      user: s.user,
      line: s.line,
      from: s.from,
      idleMinutes:
        atMs < s.activeUntilMs
          ? hash4(seed, host.index, moment.minute, SALT_IDLE_INPUT) % 6
          : Math.floor((atMs - s.activeUntilMs) / MINUTE_MS),
    });
  }
  const cores = Math.max(16, host.gpuCount * 14);
  return {
    gpus,
    sessions,
    cpuLoad1: Math.round(cpuLoad * 100) / 100,
    cpuUtilPct: Math.round(Math.min(100, (cpuLoad / cores) * 100) * 10) / 10,
    containers: [],
  };
}

function cpuLoadOf(w: Work): number {
  const width = w.gpuTo - w.gpuFrom;
  switch (w.kind) {
    case "training":
      return width * 1.6;
    case "job":
      return 1.1;
    case "inference":
      return width * 0.4;
    case "notebook":
      return 0.02;
    default:
      return w.kind satisfies never;
  }
}

function utilOf(w: Work, seed: number, hostIndex: number, gpu: number, moment: Moment): number {
  const noise = signed4(seed, hostIndex, moment.minute, gpu * 32 + SALT_UTIL);
  switch (w.kind) {
    case "notebook":
      return 0;
    case "training":
      return clampPct(w.utilPct + 4 * noise);
    case "job":
      return clampPct(w.utilPct + 6 * noise);
    case "inference": {
      const daytime = 0.5 - 0.5 * Math.cos((2 * Math.PI * (moment.hourOfDay - 3)) / 24);
      return Math.max(15, clampPct(w.utilPct * (0.45 + 0.55 * daytime) + 6 * noise));
    }
    default:
      return w.kind satisfies never;
  }
}

function clampPct(value: number): number {
  return Math.min(100, Math.max(0, Math.round(value)));
}
