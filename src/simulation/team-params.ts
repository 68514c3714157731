/**
 * Every parameter of the simulated team month, in one place. Durations are in minutes unless the
 * name says otherwise; shares and chances are 0–1. The outcome benchmark (`npm run bench -- waste`)
 * runs {@link DEFAULT_TEAM_PARAMS}; tests shorten `days` and shrink the fleet.
 */

/** What a host costs: a cloud price billed while on, or a purchase priced by the project's cost model. */
export type HostPrice =
  | { kind: "cloud"; costPerHour: number }
  | { kind: "purchased"; purchasePrice: number; ratedWatts: number };

export interface SimHostSpec {
  name: string;
  /** As `nvidia-smi` names it. */
  model: "NVIDIA H100 80GB HBM3" | "NVIDIA A100-SXM4-80GB";
  gpus: number;
  price: HostPrice;
  /** Slack user ids of the host's owners (`hosts.<name>.owners`). */
  owners: string[];
}

export interface SimPersonSpec {
  /** Slack user id. */
  id: string;
  /** Login name on the hosts (process owner, `who`). */
  login: string;
  /** The host this person tries first. */
  homeHost: string;
}

/** How long after a message a person acts on it: within minutes, the next working morning, or never. */
export interface AnswerParams {
  quickShare: number;
  /** Median of the log-normal delay of quick answers. */
  quickMedianMin: number;
  /** σ of the log-normal (natural log). */
  quickSigma: number;
  nextMorningShare: number;
  /** The rest never answer. Every delay is multiplied by this (1: as drawn; 2, 4: slower). */
  slowdown: number;
  /** Nobody answers anything (sensitivity). */
  nobody: boolean;
}

/**
 * What a person does when no host has the GPUs they need: try again in an hour (the default, as
 * before the waiting list), `/gpu claim … --wait` (the waiting list grants them the moment they are
 * free) or "notify me when free" (a DM when they are free; the person acts on it after their quick
 * answer delay, or the next morning, and may find them taken again).
 */
export type WaitMode = "retry" | "queue" | "notify";

export interface TeamParams {
  seed: number;
  /** Default `retry`: see {@link WaitMode}. */
  waitMode?: WaitMode;
  /** A Monday, 00:00 in `timezone`: the first simulated minute. */
  startMs: number;
  days: number;
  timezone: string;
  currency: string;
  hosts: SimHostSpec[];
  people: SimPersonSpec[];
  /** The cost warden roster (Slack user ids), as `warden.roster`. */
  wardenRoster: string[];
  electricityPerKWh: number;
  /**
   * What an hour of a person's time costs the team (people's waiting for a host to start is priced
   * at this in the benchmark's full cost): an assumption, a European ML engineer's employer cost.
   */
  personHourCost: number;
  /** A stopped host takes this long to boot when someone starts it again. */
  bootMin: number;
  workday: {
    /** Chance of working on a weekday / on a weekend day. */
    weekdayChance: number;
    weekendChance: number;
    /** Arrival and departure, local hour ± spread (uniform). */
    arriveHour: number;
    leaveHour: number;
    spreadHours: number;
    /** Weekend days are short: this many hours. */
    weekendHours: number;
    lunchHour: number;
    lunchMin: number;
  };
  runs: {
    /** Chance of launching a training run on a working day. */
    perDayChance: number;
    minHours: number;
    maxHours: number;
    /** GPUs per run, drawn uniformly from this list. */
    gpuChoices: number[];
    checkpointedShare: number;
    checkpointEveryMin: [number, number];
    /** Data download, compile, container pull: no GPU process yet. */
    setupMin: [number, number];
    /** Data-loading stalls: this many per 24 h of training, each this long at ~2 % utilisation. */
    stallsPerDay: number;
    stallMin: [number, number];
    /** Multi-stage runs: a share of runs whose process exits between stages (eval, next stage). */
    stagedShare: number;
    stageEveryHours: number;
    stageGapMin: [number, number];
    /** After noticing an interrupted run, a person present restarts it after this long. */
    restartAfterMin: [number, number];
  };
  notebooks: {
    perDayChance: number;
    /** Memory a notebook kernel holds on its GPU (MiB). */
    memMiB: number;
    /** While the person is at the desk: a cell runs this often (mean minutes) for this long. */
    burstEveryMin: number;
    burstMin: [number, number];
    /** At the end of the day the kernel is shut down, left to resume next working day, or forgotten. */
    closeShare: number;
    resumeShare: number;
    /** A forgotten kernel is noticed and shut down after this many days. */
    forgottenDays: [number, number];
  };
  /** A person who finds their run finished switches the host off when nothing else runs on it. */
  tidy: {
    /** The run ended while they were at work. */
    presentChance: number;
    /** It ended at night; they see it the next morning. */
    nextMorningChance: number;
    /** It ended on a Friday after they left, or at the weekend. */
    afterWeekendChance: number;
  };
  claims: {
    /** Chance that a run is claimed (`/gpu claim`) for its expected length + 2 h. */
    claimChance: number;
    /** Chance that a claim is released when the run is found finished (else forgotten). */
    releaseChance: number;
  };
  answers: AnswerParams;
}

/** Monday 2026-02-02 00:00 in Europe/Berlin (23:00 UTC the day before); no DST change in 30 days. */
export const DEFAULT_START_MS = Date.UTC(2026, 1, 1, 23, 0);

/**
 * Cloud prices are on-demand list prices of 8-GPU instances at a GPU cloud (2026, EUR, rounded);
 * the purchased host is an 8× A100 server bought for 180,000 EUR, written off over the cost model's
 * default 36 months with 30 % upkeep, drawing 6.5 kW at 0.30 EUR/kWh.
 */
export const DEFAULT_TEAM_PARAMS: TeamParams = {
  seed: 42,
  startMs: DEFAULT_START_MS,
  days: 30,
  timezone: "Europe/Berlin",
  currency: "EUR",
  hosts: [
    {
      name: "gpu-h1",
      model: "NVIDIA H100 80GB HBM3",
      gpus: 8,
      price: { kind: "cloud", costPerHour: 24 },
      owners: ["U0ALICE"],
    },
    {
      name: "gpu-h2",
      model: "NVIDIA H100 80GB HBM3",
      gpus: 8,
      price: { kind: "cloud", costPerHour: 24 },
      owners: ["U0BOB", "U0CAROL"],
    },
    {
      name: "gpu-a1",
      model: "NVIDIA A100-SXM4-80GB",
      gpus: 8,
      price: { kind: "cloud", costPerHour: 14 },
      owners: ["U0DAN"],
    },
    {
      name: "gpu-a2",
      model: "NVIDIA A100-SXM4-80GB",
      gpus: 8,
      price: { kind: "purchased", purchasePrice: 180_000, ratedWatts: 6_500 },
      owners: ["U0ERIN", "U0FRANK"],
    },
  ],
  people: [
    { id: "U0ALICE", login: "alice", homeHost: "gpu-h1" },
    { id: "U0BOB", login: "bob", homeHost: "gpu-h2" },
    { id: "U0CAROL", login: "carol", homeHost: "gpu-h2" },
    { id: "U0DAN", login: "dan", homeHost: "gpu-a1" },
    { id: "U0ERIN", login: "erin", homeHost: "gpu-a2" },
    { id: "U0FRANK", login: "frank", homeHost: "gpu-a2" },
  ],
  wardenRoster: ["U0CAROL", "U0DAN", "U0ERIN", "U0FRANK", "U0ALICE", "U0BOB"],
  electricityPerKWh: 0.3,
  personHourCost: 60,
  bootMin: 5,
  workday: {
    weekdayChance: 0.92,
    weekendChance: 0.12,
    arriveHour: 9,
    leaveHour: 18,
    spreadHours: 1,
    weekendHours: 4,
    lunchHour: 12.5,
    lunchMin: 50,
  },
  runs: {
    perDayChance: 0.4,
    minHours: 1,
    maxHours: 48,
    gpuChoices: [8, 8, 4, 4, 2],
    checkpointedShare: 0.6,
    checkpointEveryMin: [10, 30],
    setupMin: [2, 20],
    stallsPerDay: 8,
    stallMin: [3, 12],
    stagedShare: 0.3,
    stageEveryHours: 4,
    stageGapMin: [2, 12],
    restartAfterMin: [10, 45],
  },
  notebooks: {
    perDayChance: 0.5,
    memMiB: 24_000,
    burstEveryMin: 25,
    burstMin: [2, 6],
    closeShare: 0.5,
    resumeShare: 0.3,
    forgottenDays: [1, 4],
  },
  tidy: { presentChance: 0.5, nextMorningChance: 0.35, afterWeekendChance: 0.15 },
  claims: { claimChance: 0.5, releaseChance: 0.6 },
  answers: {
    quickShare: 0.45,
    quickMedianMin: 12,
    quickSigma: 0.8,
    nextMorningShare: 0.35,
    slowdown: 1,
    nobody: false,
  },
};
