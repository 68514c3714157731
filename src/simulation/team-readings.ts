import type { GpuReading, HostObservation, LoginSession } from "../domain/observation.ts";
import { failed } from "../domain/observation.ts";
import { MINUTE_MS } from "../shared/clock.ts";
import { unit4 } from "../sources/simulated-random.ts";
import { runInProgress } from "./team-work.ts";
import type { SimHost, TeamWorld } from "./team-world.ts";

const MEM_TOTAL_MIB = 81_559;
const IDLE_W = 60;
const MAX_W = { "NVIDIA H100 80GB HBM3": 700, "NVIDIA A100-SXM4-80GB": 400 } as const;
const TRAIN_MEM_MIB = 71_000;

/** Utilisation of each GPU of a host now (0 for a stopped or booting host). */
export function gpuUtils(world: TeamWorld, host: SimHost): number[] {
  return host.slots.map((slot, gpu) => {
    if (host.power !== "on" || slot === null) return 0;
    if (slot.kind === "notebook") return slot.notebook.burstLeftMin > 0 ? slot.notebook.burstUtilPct : 0;
    const { run } = slot;
    if (run.phase !== "train") return 0;
    const noise = unit4(world.params.seed, host.index * 64 + gpu, Math.floor(world.nowMs / MINUTE_MS), 7);
    return run.stallLeftMin > 0 ? 1 + noise * 3 : 86 + noise * 13;
  });
}

/**
 * What `nvidia-smi` and `who` would say about the host now; a host that is off or booting does not
 * answer (`unreachable`), as over SSH.
 */
export function observeHost(world: TeamWorld, host: SimHost): HostObservation {
  const name = host.spec.name;
  const atMs = world.nowMs;
  if (host.power !== "on") {
    return failed(name, "simulated", atMs, "unreachable", `${name}: host is switched off (no answer)`);
  }
  const utils = gpuUtils(world, host);
  const maxW = MAX_W[host.spec.model];
  const gpus = host.slots.map((slot, index): GpuReading => {
    const util = utils[index]!;
    let memUsedMiB = 0;
    let user: string | null = null;
    let processName = "";
    let pid = 0;
    if (slot?.kind === "notebook") {
      memUsedMiB = world.params.notebooks.memMiB;
      user = world.params.people[slot.notebook.person]!.login;
      processName = "python3 -m ipykernel_launcher";
      pid = 20_000 + slot.notebook.id;
    } else if (slot?.kind === "run" && (slot.run.phase === "train" || slot.run.phase === "gap")) {
      if (slot.run.phase === "train") {
        memUsedMiB = TRAIN_MEM_MIB;
        user = world.params.people[slot.run.person]!.login;
        processName = "python3 train.py";
        pid = 10_000 + slot.run.id;
      }
    }
    const processes =
      user === null
        ? []
        : [
            {
              pid,
              user,
              name: processName,
              usedMemoryMiB: memUsedMiB,
              container: null,
              pod: null,
              namespace: null,
            },
          ];
    return {
      index,
      uuid: null,
      model: host.spec.model,
      utilPct: Math.round(util),
      memUsedMiB,
      memTotalMiB: MEM_TOTAL_MIB,
      powerW: Math.round(IDLE_W + (util / 100) * (maxW - IDLE_W) + (memUsedMiB > 0 ? 30 : 0)),
      tempC: Math.round(32 + util * 0.4),
      mig: false,
      processes,
    };
  });
  return {
    host: name,
    source: "simulated",
    atMs,
    ok: true,
    gpus,
    sessions: sessionsOn(world, host),
    cpuLoad1: null,
    cpuUtilPct: null,
    containers: [],
  };
}

/** One login per person with work on the host; idle since their last input there. */
function sessionsOn(world: TeamWorld, host: SimHost): LoginSession[] {
  const sessions: LoginSession[] = [];
  const people = new Set<number>();
  for (const slot of host.slots) {
    if (slot === null) continue;
    people.add(slot.kind === "run" ? slot.run.person : slot.notebook.person);
  }
  for (const person of [...people].sort((a, b) => a - b)) {
    const lastMs = world.lastInputMs.get(`${person}:${host.spec.name}`);
    if (lastMs === undefined) continue;
    sessions.push({
      user: world.params.people[person]!.login,
      line: `pts/${person}`,
      from: null,
      idleMinutes: Math.floor((world.nowMs - lastMs) / MINUTE_MS),
    });
  }
  return sessions;
}

/** Whether any GPU process runs on the host (what `autostop` looks at). */
export function hasGpuProcess(host: SimHost): boolean {
  return host.slots.some(
    (slot) =>
      slot !== null && (slot.kind === "notebook" || (slot.kind === "run" && slot.run.phase === "train")),
  );
}

/**
 * What SkyPilot's autostop (`wait_for: jobs_and_ssh`) counts as busy: a job of the queue pending or
 * running (a run from its setup to its end, stage gaps included) or an SSH session open. A person's
 * session is open while they are at work (lunch included) with something of theirs on the host; at
 * night and at weekends laptops are closed and the connections gone.
 */
export function skypilotBusy(world: TeamWorld, host: SimHost): boolean {
  for (const slot of host.slots) {
    if (slot === null) continue;
    if (slot.kind === "run" && (runInProgress(slot.run) || slot.run.phase === "waiting")) return true;
    const person = slot.kind === "run" ? slot.run.person : slot.notebook.person;
    if (world.calendar.atWork(person, world.nowMs)) return true;
  }
  return false;
}
