import type { TeamEvent } from "./team-events.ts";
import { gpuUtils, hasGpuProcess, skypilotBusy } from "./team-readings.ts";
import type { TeamWorld } from "./team-world.ts";

type Reading = Extract<TeamEvent, { kind: "reading" }>;

/** Below this utilisation a GPU is idle (as the ledger and the design's default rule). */
const IDLE_UTIL_PCT = 10;

/**
 * The event log's reading summaries: per host, what a reading of it would show (power, busy GPUs,
 * GPUs with a process, logins, jobs), logged each time it changes, so that an idle span, a stop
 * and what it hit can be followed in the log alone.
 */
export class ReadingLog {
  readonly #world: TeamWorld;
  readonly #last = new Map<string, string>();

  constructor(world: TeamWorld) {
    this.#world = world;
  }

  /** Logs the hosts whose summary changed since the last minute. */
  record(): void {
    const world = this.#world;
    for (const host of world.hosts) {
      const reading = this.#summary(host);
      const key = `${reading.power}|${reading.busyGpus}|${reading.processGpus}|${reading.logins}|${reading.jobBusy}`;
      if (this.#last.get(host.spec.name) === key) continue;
      this.#last.set(host.spec.name, key);
      world.events.push(reading);
    }
  }

  #summary(host: TeamWorld["hosts"][number]): Reading {
    const world = this.#world;
    const on = host.power === "on";
    const logins = new Set<number>();
    let processGpus = 0;
    for (const slot of host.slots) {
      if (slot === null) continue;
      const person = slot.kind === "run" ? slot.run.person : slot.notebook.person;
      if (world.lastInputMs.has(`${person}:${host.spec.name}`)) logins.add(person);
      if (slot.kind === "notebook" || slot.run.phase === "train") processGpus++;
    }
    return {
      kind: "reading",
      atMs: world.nowMs,
      host: host.spec.name,
      power: host.power,
      busyGpus: on ? gpuUtils(world, host).filter((util) => util >= IDLE_UTIL_PCT).length : 0,
      processGpus: on ? processGpus : 0,
      logins: on ? logins.size : 0,
      jobBusy: on && (hasGpuProcess(host) || skypilotBusy(world, host)),
    };
  }
}
