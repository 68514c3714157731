import { DAY_MS, HOUR_MS, MINUTE_MS } from "../shared/clock.ts";
import { dayjs } from "../shared/time.ts";
import type { TeamParams } from "./team-params.ts";
import { Rng } from "./team-random.ts";

/** A training run someone means to launch. */
export interface RunPlan {
  atMs: number;
  gpus: number;
  /** Training time the run needs, in minutes (setup and stage gaps come on top). */
  trainMin: number;
  /** `null`: the run is not checkpointed (an interruption loses everything). */
  checkpointEveryMin: number | null;
  setupMin: number;
  staged: boolean;
}

/** A notebook someone opens, and what becomes of it at the end of the day. */
export interface NotebookPlan {
  atMs: number;
  fate: "close" | "resume" | "forget";
  /** For `forget`: the kernel is found and shut down this long after the person left. */
  forgottenMs: number;
}

/** One person's day: whether and when they work, and what they start. */
export interface DayPlan {
  day: number;
  works: boolean;
  arriveMs: number;
  leaveMs: number;
  lunchFromMs: number;
  lunchToMs: number;
  run: RunPlan | null;
  notebook: NotebookPlan | null;
}

/** Purposes of the keyed random streams (so adding one never shifts another). */
const DAY_STREAM = 1;

/**
 * The team's calendar: local midnights, weekends and each person's day plans, all drawn from keyed
 * streams so they are the same under every policy.
 */
export class TeamCalendar {
  readonly #params: TeamParams;
  readonly #midnights: number[] = [];
  readonly #plans = new Map<number, DayPlan>();

  constructor(params: TeamParams) {
    this.#params = params;
    const first = dayjs(params.startMs).tz(params.timezone).startOf("day");
    for (let d = 0; d <= params.days + 7; d++) this.#midnights.push(first.add(d, "day").valueOf());
  }

  dayOf(ms: number): number {
    let d = Math.floor((ms - this.#params.startMs) / DAY_MS);
    while (d + 1 < this.#midnights.length && this.#midnights[d + 1]! <= ms) d++;
    while (d > 0 && this.#midnights[d]! > ms) d--;
    return Math.max(0, d);
  }

  midnightMs(day: number): number {
    return this.#midnights[Math.min(day, this.#midnights.length - 1)]!;
  }

  /** Local hour with fraction (0–24) of an instant. */
  localHour(ms: number): number {
    return (ms - this.midnightMs(this.dayOf(ms))) / HOUR_MS;
  }

  /** Day 0 is a Monday: 5 and 6 are the weekend. */
  isWeekend(day: number): boolean {
    return day % 7 >= 5;
  }

  isFriday(day: number): boolean {
    return day % 7 === 4;
  }

  plan(person: number, day: number): DayPlan {
    const key = person * 10_000 + day;
    let plan = this.#plans.get(key);
    if (plan === undefined) {
      plan = this.#draw(person, day);
      this.#plans.set(key, plan);
    }
    return plan;
  }

  /** The person's next arrival at or after `ms` (within the next two weeks), else `null`. */
  nextArrivalMs(person: number, ms: number): number | null {
    for (let day = this.dayOf(ms); day < this.dayOf(ms) + 14; day++) {
      const plan = this.plan(person, day);
      if (plan.works && plan.arriveMs >= ms) return plan.arriveMs;
    }
    return null;
  }

  /** At work and at the desk (not at lunch). */
  atDesk(person: number, ms: number): boolean {
    const plan = this.plan(person, this.dayOf(ms));
    return (
      plan.works &&
      ms >= plan.arriveMs &&
      ms < plan.leaveMs &&
      !(ms >= plan.lunchFromMs && ms < plan.lunchToMs)
    );
  }

  /** Between arrival and departure, lunch included. */
  atWork(person: number, ms: number): boolean {
    const plan = this.plan(person, this.dayOf(ms));
    return plan.works && ms >= plan.arriveMs && ms < plan.leaveMs;
  }

  #draw(person: number, day: number): DayPlan {
    const p = this.#params;
    const rng = Rng.keyed(p.seed, DAY_STREAM, person, day);
    const midnight = this.midnightMs(day);
    const weekend = this.isWeekend(day);
    const works = rng.chance(weekend ? p.workday.weekendChance : p.workday.weekdayChance);
    const spread = () => (rng.next() * 2 - 1) * p.workday.spreadHours * HOUR_MS;
    const arriveMs = midnight + (weekend ? 11 : p.workday.arriveHour) * HOUR_MS + spread();
    const leaveMs = weekend
      ? arriveMs + p.workday.weekendHours * HOUR_MS
      : midnight + p.workday.leaveHour * HOUR_MS + spread();
    const lunchFromMs = weekend ? leaveMs : midnight + p.workday.lunchHour * HOUR_MS + spread() / 4;
    const lunchToMs = weekend ? leaveMs : lunchFromMs + p.workday.lunchMin * MINUTE_MS;
    const span = leaveMs - arriveMs;
    const runs = p.runs;
    const run: RunPlan | null =
      works && rng.chance(runs.perDayChance)
        ? {
            atMs: Math.round(arriveMs + span * rng.between(weekend ? [0.05, 0.4] : [0.15, 0.9])),
            gpus: rng.pick(runs.gpuChoices),
            trainMin: Math.round(rng.logUniform(runs.minHours, runs.maxHours) * 60),
            checkpointEveryMin: rng.chance(runs.checkpointedShare) ? rng.int(runs.checkpointEveryMin) : null,
            setupMin: rng.int(runs.setupMin),
            staged: rng.chance(runs.stagedShare),
          }
        : null;
    const nb = p.notebooks;
    const fateDraw = rng.next();
    const notebook: NotebookPlan | null =
      works && !weekend && rng.chance(nb.perDayChance)
        ? {
            atMs: Math.round(arriveMs + rng.between([0, 90]) * MINUTE_MS),
            fate:
              fateDraw < nb.closeShare
                ? "close"
                : fateDraw < nb.closeShare + nb.resumeShare
                  ? "resume"
                  : "forget",
            forgottenMs: Math.round(rng.between(nb.forgottenDays) * DAY_MS),
          }
        : null;
    return {
      day,
      works,
      arriveMs: Math.round(arriveMs),
      leaveMs: Math.round(leaveMs),
      lunchFromMs: Math.round(lunchFromMs),
      lunchToMs: Math.round(lunchToMs),
      run,
      notebook,
    };
  }
}
