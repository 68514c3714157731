import { failed, type HostObservation } from "../domain/observation.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../shared/clock.ts";
import {
  gpuUuid,
  type Outage,
  outageAt,
  PLAN_REACH_DAYS,
  persistentWork,
  planDay,
  type Session,
  type SimulatedHostSpec,
  TEAM_USERS,
  type Work,
} from "./simulated-activity.ts";
import { LocalCalendar } from "./simulated-calendar.ts";
import { MODEL_CYCLE } from "./simulated-gpu-models.ts";
import { foldSeed, hash4 } from "./simulated-random.ts";
import { hostReadings, type Moment } from "./simulated-readings.ts";
import { assignRoles, type SimulatedRole, simulatedHostName } from "./simulated-roles.ts";

export interface SimulatedFleetOptions {
  /** 1–10,000. */
  hosts: number;
  /** 1–16, the same on every host. */
  gpusPerHost: number;
  seed: number;
  /** IANA zone of the team: working hours, nights and weekends follow it. */
  timezone: string;
}

/** A span of time, start inclusive, end exclusive. */
export interface TimeInterval {
  startMs: number;
  endMs: number;
}

interface HostState extends SimulatedHostSpec {
  readonly persistent: readonly Work[];
  uuids: string[] | null;
  /** Work and sessions that can be active on `day`: a cache of a pure function of (seed, host, day). */
  plan: DayPlan | null;
}

interface DayPlan {
  day: number;
  work: Work[];
  sessions: Session[];
}

const SALT_OWNER = 17;

/** Looking further back than this for the last busy instant is not worth it: a host idle that long is idle. */
export const DEFAULT_BUSY_LOOKBACK_MS = 14 * DAY_MS;

/**
 * A deterministic simulated GPU fleet. What it reports at an instant is a pure function of
 * (seed, options, instant): any poll cadence sees the same fleet, and two polls at the same instant
 * are deep-equal. Roles (training, interactive, inference, notebook, forgotten, flaky) are ground
 * truth for tests and benchmarks.
 */
export class SimulatedFleet {
  readonly hosts: readonly SimulatedHostSpec[];
  readonly timezone: string;
  readonly #seed: number;
  readonly #states: readonly HostState[];
  readonly #byName: ReadonlyMap<string, HostState>;
  readonly #calendar: LocalCalendar;

  constructor(options: SimulatedFleetOptions) {
    const { hosts, gpusPerHost } = options;
    if (!Number.isInteger(hosts) || hosts < 1 || hosts > 10_000) {
      throw new Error(`simulated fleet: hosts must be an integer from 1 to 10000, got ${hosts}`);
    }
    if (!Number.isInteger(gpusPerHost) || gpusPerHost < 1 || gpusPerHost > 16) {
      throw new Error(`simulated fleet: gpus_per_host must be an integer from 1 to 16, got ${gpusPerHost}`);
    }
    this.#calendar = new LocalCalendar(options.timezone);
    this.timezone = options.timezone;
    const seed = foldSeed(options.seed);
    this.#seed = seed;
    const roles = assignRoles(hosts, seed);
    const modelOffset = hash4(seed, 0, 0, 0x6d6f64) % MODEL_CYCLE.length;
    const specs: SimulatedHostSpec[] = [];
    const states: HostState[] = [];
    for (let index = 0; index < hosts; index++) {
      const spec: SimulatedHostSpec = {
        index,
        name: simulatedHostName(index, hosts),
        role: roles[index]!,
        model: MODEL_CYCLE[(index + modelOffset) % MODEL_CYCLE.length]!,
        gpuCount: gpusPerHost,
        owner: TEAM_USERS[hash4(seed, index, 0, SALT_OWNER) % TEAM_USERS.length]!,
      };
      specs.push(Object.freeze(spec));
      states.push({ ...spec, persistent: persistentWork(seed, spec), uuids: null, plan: null });
    }
    this.#states = states;
    this.hosts = specs;
    this.#byName = new Map(states.map((state) => [state.name, state]));
  }

  /** Host name → scripted role. */
  roles(): ReadonlyMap<string, SimulatedRole> {
    return new Map(this.#states.map((state) => [state.name, state.role]));
  }

  host(name: string): SimulatedHostSpec | undefined {
    const state = this.#byName.get(name);
    return state === undefined ? undefined : this.hosts[state.index];
  }

  /** One observation per host, in host order, as a poll at `atMs` would see them. */
  observe(atMs: number): HostObservation[] {
    const moment = this.#moment(atMs);
    return this.#states.map((state) => this.#observe(state, moment));
  }

  observeHost(name: string, atMs: number): HostObservation {
    return this.#observe(this.#state(name), this.#moment(atMs));
  }

  /** The outage the host is in at `atMs`, or null when it answers. */
  outageAt(name: string, atMs: number): Outage | null {
    return outageAt(this.#seed, this.#state(name), atMs);
  }

  /**
   * Ground truth: when the host ran GPU work (training, jobs, inference — not a notebook holding
   * memory at 0 %) between `fromMs` and `toMs`, as merged intervals clipped to that range. Outages
   * do not interrupt it: the work goes on while the host is unreachable.
   */
  busyIntervals(name: string, fromMs: number, toMs: number): TimeInterval[] {
    const state = this.#state(name);
    const work: Work[] = [...state.persistent];
    const sessions: Session[] = [];
    const lastDay = this.#calendar.dayOf(toMs);
    for (let day = this.#calendar.dayOf(fromMs) - PLAN_REACH_DAYS; day <= lastDay; day++) {
      planDay(this.#seed, state, day, this.#calendar, work, sessions);
    }
    const clipped = work
      .filter((w) => w.kind !== "notebook" && w.startMs < toMs && w.endMs > fromMs)
      .map((w) => ({ startMs: Math.max(w.startMs, fromMs), endMs: Math.min(w.endMs, toMs) }))
      .sort((a, b) => a.startMs - b.startMs);
    const merged: TimeInterval[] = [];
    for (const interval of clipped) {
      const last = merged.at(-1);
      if (last !== undefined && interval.startMs <= last.endMs)
        last.endMs = Math.max(last.endMs, interval.endMs);
      else merged.push(interval);
    }
    return merged;
  }

  /**
   * Ground truth for detection latency: `atMs` when the host is busy at `atMs` (see
   * {@link busyIntervals}); otherwise the instant its last GPU work ended (it was busy up to, not
   * including, that instant); null when it was not busy within `lookbackMs`.
   */
  lastBusyAtMs(name: string, atMs: number, lookbackMs = DEFAULT_BUSY_LOOKBACK_MS): number | null {
    const intervals = this.busyIntervals(name, atMs - lookbackMs, atMs + 1);
    const last = intervals.at(-1);
    if (last === undefined) return null;
    return Math.min(last.endMs, atMs);
  }

  #state(name: string): HostState {
    const state = this.#byName.get(name);
    if (state === undefined) throw new Error(`simulated fleet: no host named "${name}"`);
    return state;
  }

  #moment(atMs: number): Moment {
    if (!Number.isFinite(atMs)) throw new Error(`simulated fleet: instant must be finite, got ${atMs}`);
    const day = this.#calendar.dayOf(atMs);
    return {
      atMs,
      day,
      minute: Math.floor(atMs / MINUTE_MS),
      hourOfDay: Math.max(0, (atMs - this.#calendar.startMs(day)) / HOUR_MS),
    };
  }

  #observe(state: HostState, moment: Moment): HostObservation {
    const seed = this.#seed;
    const { atMs } = moment;
    if (outageAt(seed, state, atMs) !== null) {
      return failed(
        state.name,
        "simulated",
        atMs,
        "unreachable",
        `${state.name}: unreachable: no route to host (simulated outage)`,
      );
    }
    const plan = this.#plan(state, moment.day);
    return {
      host: state.name,
      source: "simulated",
      atMs,
      ok: true,
      ...hostReadings(seed, state, this.#uuids(state), plan.work, plan.sessions, moment),
    };
  }

  #plan(state: HostState, day: number): DayPlan {
    if (state.plan?.day === day) return state.plan;
    const work: Work[] = [...state.persistent];
    const sessions: Session[] = [];
    for (let d = day - PLAN_REACH_DAYS; d <= day; d++) {
      planDay(this.#seed, state, d, this.#calendar, work, sessions);
    }
    state.plan = { day, work, sessions };
    return state.plan;
  }

  #uuids(state: HostState): string[] {
    if (state.uuids === null) {
      const uuids: string[] = [];
      for (let g = 0; g < state.gpuCount; g++) uuids.push(gpuUuid(this.#seed, state.index, g));
      state.uuids = uuids;
    }
    return state.uuids;
  }
}
