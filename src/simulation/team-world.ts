import { DAY_MS, MINUTE_MS } from "../shared/clock.ts";
import { EventQueue } from "./event-queue.ts";
import { TeamCalendar } from "./team-calendar.ts";
import type { TeamEvent } from "./team-events.ts";
import type { SimHostSpec, TeamParams } from "./team-params.ts";
import { Rng } from "./team-random.ts";
import {
  checkpointedMin,
  runInProgress,
  type SimNotebook,
  type SimRun,
  type SlotHolder,
} from "./team-work.ts";

/** What people do through the policy under test (a bot, or nothing). */
export interface PeopleHooks {
  /** A run started on a host (the bot's policies may claim it). */
  runStarted(run: SimRun): void;
  /** Its person found the run finished (the bot's policies may release its claim). */
  runFinishedNoticed(run: SimRun): void;
  /** Its person switches the host off by hand, nothing else running there. */
  tidy(person: number, host: string): void;
}

export interface SimHost {
  spec: SimHostSpec;
  index: number;
  power: "on" | "off" | "booting";
  readyAtMs: number;
  slots: Array<SlotHolder | null>;
  /** Work waiting for the host to finish booting. */
  waiting: Array<() => void>;
}

const STREAM_RUN = 2;
const STREAM_NOTEBOOK = 3;
const STREAM_NOTICE = 4;

/**
 * The simulated team and fleet, one minute at a time: people arrive, launch runs, open notebooks,
 * go to lunch, leave, forget things; hosts boot, run and are stopped. Policies act on it through
 * {@link powerOff} and {@link powerOn}; everything that happens goes into {@link events}.
 */
export class TeamWorld {
  readonly params: TeamParams;
  readonly calendar: TeamCalendar;
  readonly events: TeamEvent[] = [];
  /** Work waiting for GPUs (`waitMode` queue or notify), first come first. */
  readonly #pending: Array<{
    person: number;
    count: number;
    start: (host: SimHost, gpus: number[]) => void;
    sinceMs: number;
    notified: boolean;
  }> = [];
  readonly hosts: SimHost[];
  readonly runs = new Map<number, SimRun>();
  readonly notebooks = new Map<number, SimNotebook>();
  /** Last input per person and host (`person:host`), for login sessions. */
  readonly lastInputMs = new Map<string, number>();
  hooks: PeopleHooks;
  nowMs: number;
  readonly #queue = new EventQueue();
  #nextId = 1;

  constructor(params: TeamParams, hooks: PeopleHooks) {
    this.params = params;
    this.hooks = hooks;
    this.nowMs = params.startMs;
    this.calendar = new TeamCalendar(params);
    this.hosts = params.hosts.map((spec, index) => ({
      spec,
      index,
      power: "on",
      readyAtMs: params.startMs,
      slots: new Array<SlotHolder | null>(spec.gpus).fill(null),
      waiting: [],
    }));
    for (let day = 0; day < params.days; day++) {
      for (let person = 0; person < params.people.length; person++) this.#scheduleDay(person, day);
    }
  }

  host(name: string): SimHost {
    const host = this.hosts.find((h) => h.spec.name === name);
    if (host === undefined) throw new Error(`no simulated host ${name}`);
    return host;
  }

  personIndex(id: string): number {
    return this.params.people.findIndex((person) => person.id === id);
  }

  schedule(atMs: number, run: () => void): void {
    this.#queue.schedule(atMs, run);
  }

  /** Moves the world to `nowMs`: due events, then one minute of every run and notebook. */
  tick(nowMs: number): void {
    this.nowMs = nowMs;
    this.#queue.runDue(nowMs);
    for (const run of this.runs.values()) this.#advanceRun(run);
    for (const notebook of this.notebooks.values()) this.#advanceNotebook(notebook);
  }

  /** Work that holds the host now or will need it back within the day, for a person deciding on an alert. */
  needsHost(person: number, host: string): boolean {
    for (const run of this.runs.values()) {
      if (run.person === person && run.host === host && (runInProgress(run) || run.phase === "waiting"))
        return true;
    }
    for (const notebook of this.notebooks.values()) {
      if (notebook.person !== person || notebook.host !== host) continue;
      if (notebook.phase === "open" || notebook.phase === "waiting") return true;
      if (notebook.phase === "resume") return this.#returnsWithinDay(person);
    }
    return false;
  }

  /** Anything on the host at all: a run (any phase before done) or a notebook holding memory. */
  hostInUse(host: string): boolean {
    return this.host(host).slots.some((slot) => slot !== null);
  }

  /**
   * Powers the host off: every run in progress is interrupted (work since its last checkpoint is
   * lost) and every notebook killed; their people start them again when they come back. A killed
   * notebook whose person comes back within the day loses what its cells computed since its kernel
   * started (one GPU for those minutes), which its person re-runs; a forgotten one loses nothing.
   */
  powerOff(name: string, by: "policy" | "person", actor: string, idleForMin: number | null): void {
    const host = this.host(name);
    if (host.power === "off") return;
    const interrupted: Extract<TeamEvent, { kind: "host-stopped" }>["interruptedRuns"] = [];
    const killed: Extract<TeamEvent, { kind: "host-stopped" }>["notebooks"] = [];
    const seen = new Set<SlotHolder>();
    for (const holder of host.slots) {
      if (holder === null || seen.has(holder)) continue;
      seen.add(holder);
      if (holder.kind === "run") {
        const { run } = holder;
        if (runInProgress(run)) {
          const lostMin = run.phase === "setup" ? 0 : run.progressMin - checkpointedMin(run);
          interrupted.push({
            runId: run.id,
            person: this.params.people[run.person]!.id,
            lostGpuHours: (lostMin / 60) * run.gpus.length,
          });
        }
        this.#killRun(run);
      } else {
        const { notebook } = holder;
        const comesBack =
          notebook.phase === "open" ||
          (notebook.phase === "resume" && this.#returnsWithinDay(notebook.person));
        killed.push({
          notebookId: notebook.id,
          person: this.params.people[notebook.person]!.id,
          comesBackWithinDay: comesBack,
          lostGpuHours: comesBack ? notebook.computedMin / 60 : 0,
        });
        this.#killNotebook(notebook, comesBack);
      }
    }
    for (const key of [...this.lastInputMs.keys()])
      if (key.endsWith(`:${name}`)) this.lastInputMs.delete(key);
    host.slots.fill(null);
    host.waiting = [];
    host.power = "off";
    this.events.push({
      kind: "host-stopped",
      atMs: this.nowMs,
      host: name,
      by,
      actor,
      interruptedRuns: interrupted,
      notebooks: killed,
      falseStop: interrupted.length > 0 || killed.some((n) => n.comesBackWithinDay),
      idleForMin,
    });
    const victim = { atMs: this.nowMs, host: name, actor } as const;
    for (const run of interrupted) {
      this.events.push({
        kind: "killed",
        ...victim,
        victim: "run",
        id: run.runId,
        person: run.person,
        lostGpuHours: run.lostGpuHours,
        falseStop: true,
      });
    }
    for (const nb of killed) {
      this.events.push({
        kind: "killed",
        ...victim,
        victim: "notebook",
        id: nb.notebookId,
        person: nb.person,
        lostGpuHours: nb.lostGpuHours,
        falseStop: nb.comesBackWithinDay,
      });
    }
  }

  /** Starts a stopped host; it answers after `bootMin`. */
  powerOn(name: string, actor: string): void {
    const host = this.host(name);
    if (host.power !== "off") return;
    host.power = "booting";
    host.readyAtMs = this.nowMs + this.params.bootMin * MINUTE_MS;
    this.events.push({
      kind: "host-started",
      atMs: this.nowMs,
      host: name,
      person: actor,
      readyAtMs: host.readyAtMs,
    });
    this.schedule(host.readyAtMs, () => {
      if (host.power !== "booting") return;
      host.power = "on";
      const waiting = host.waiting;
      host.waiting = [];
      for (const start of waiting) start();
    });
  }

  #returnsWithinDay(person: number): boolean {
    if (this.calendar.atWork(person, this.nowMs)) return true;
    const next = this.calendar.nextArrivalMs(person, this.nowMs);
    return next !== null && next - this.nowMs <= DAY_MS;
  }

  #scheduleDay(person: number, day: number): void {
    const plan = this.calendar.plan(person, day);
    if (!plan.works) return;
    this.schedule(plan.arriveMs, () => this.#arrive(person));
    const run = plan.run;
    if (run !== null) this.schedule(run.atMs, () => this.#startRun(person, run, 0, null));
    const nb = plan.notebook;
    if (nb !== null) {
      this.schedule(nb.atMs, () => {
        if (this.#openNotebookOf(person) === null) this.#openNotebook(person, nb.fate, nb.forgottenMs);
      });
    }
    this.schedule(plan.leaveMs, () => this.#leave(person));
  }

  #openNotebookOf(person: number): SimNotebook | null {
    for (const notebook of this.notebooks.values()) {
      if (notebook.person === person && (notebook.phase === "open" || notebook.phase === "waiting"))
        return notebook;
    }
    return null;
  }

  #arrive(person: number): void {
    const plan = this.calendar.plan(person, this.calendar.dayOf(this.nowMs));
    for (const notebook of this.notebooks.values()) {
      if (notebook.person !== person || notebook.phase !== "resume") continue;
      notebook.phase = "open";
      notebook.fate = plan.notebook?.fate ?? "close";
      notebook.forgottenMs = plan.notebook?.forgottenMs ?? DAY_MS;
    }
  }

  #leave(person: number): void {
    for (const notebook of this.notebooks.values()) {
      if (notebook.person !== person || notebook.phase !== "open") continue;
      switch (notebook.fate) {
        case "close":
          this.#closeNotebook(notebook);
          break;
        case "resume":
          notebook.phase = "resume";
          break;
        case "forget":
          notebook.phase = "forgotten";
          this.schedule(this.nowMs + notebook.forgottenMs, () => {
            if (notebook.phase === "forgotten") this.#closeNotebook(notebook);
          });
          break;
        default:
          notebook.fate satisfies never;
      }
    }
  }

  /**
   * Finds GPUs for new work: a host that is on (or booting) with enough free GPUs, the person's own
   * first; else a stopped one, which they start (and wait for); else they try again in an hour.
   */
  #acquire(
    person: number,
    count: number,
    start: (host: SimHost, gpus: number[]) => void,
    sinceMs: number = this.nowMs,
  ): void {
    const candidate = this.#candidate(person, count);
    if (candidate === undefined) {
      const mode = this.params.waitMode ?? "retry";
      if (mode !== "retry") this.#pending.push({ person, count, start, sinceMs, notified: false });
      else if (this.calendar.atWork(person, this.nowMs + 60 * MINUTE_MS)) {
        this.schedule(this.nowMs + 60 * MINUTE_MS, () => this.#acquire(person, count, start, sinceMs));
      }
      return;
    }
    const free = (host: SimHost) => host.slots.flatMap((slot, i) => (slot === null ? [i] : []));
    if (sinceMs < this.nowMs) {
      this.events.push({
        kind: "gpu-wait",
        atMs: this.nowMs,
        person: this.params.people[person]!.id,
        gpus: count,
        waitMin: (this.nowMs - sinceMs) / MINUTE_MS,
      });
    }
    const gpus = free(candidate).slice(0, count);
    const login = this.params.people[person]!.id;
    if (candidate.power === "off") this.powerOn(candidate.spec.name, login);
    if (candidate.power === "booting") {
      this.events.push({
        kind: "start-wait",
        atMs: this.nowMs,
        person: login,
        host: candidate.spec.name,
        waitMin: (candidate.readyAtMs - this.nowMs) / MINUTE_MS,
      });
    }
    start(candidate, gpus);
  }

  #startRun(person: number, plan: SimRun["plan"], progressMin: number, restartOf: number | null): void {
    this.#acquire(person, plan.gpus, (host, gpus) => {
      const id = this.#nextId++;
      const run: SimRun = {
        id,
        person,
        host: host.spec.name,
        gpus,
        plan,
        phase: "waiting",
        phaseLeftMin: plan.setupMin,
        progressMin,
        stallLeftMin: 0,
        restartOf,
        rng: Rng.keyed(this.params.seed, STREAM_RUN, id),
      };
      this.runs.set(id, run);
      for (const gpu of gpus) host.slots[gpu] = { kind: "run", run };
      const begin = () => {
        run.phase = "setup";
        this.lastInputMs.set(`${person}:${run.host}`, this.nowMs);
        this.events.push({
          kind: "run-started",
          atMs: this.nowMs,
          runId: id,
          person: this.params.people[person]!.id,
          host: run.host,
          gpus: gpus.length,
          restartOf,
        });
        this.hooks.runStarted(run);
      };
      if (host.power === "on") begin();
      else host.waiting.push(begin);
    });
  }

  #advanceRun(run: SimRun): void {
    switch (run.phase) {
      case "setup":
      case "gap":
        run.phaseLeftMin--;
        if (run.phaseLeftMin <= 0) run.phase = "train";
        return;
      case "train":
        this.#train(run);
        return;
      case "waiting":
      case "done":
      case "killed":
        return;
      default:
        run.phase satisfies never;
    }
  }

  #train(run: SimRun): void {
    const p = this.params.runs;
    run.progressMin++;
    if (run.stallLeftMin > 0) run.stallLeftMin--;
    else if (run.rng.chance(p.stallsPerDay / 1440)) run.stallLeftMin = run.rng.int(p.stallMin);
    if (run.progressMin >= run.plan.trainMin) {
      this.#finishRun(run);
      return;
    }
    if (run.plan.staged && run.progressMin % (p.stageEveryHours * 60) === 0) {
      run.phase = "gap";
      run.phaseLeftMin = run.rng.int(p.stageGapMin);
    }
  }

  #freeSlots(hostName: string, holderOf: (holder: SlotHolder) => boolean): void {
    const host = this.host(hostName);
    host.slots.forEach((slot, i) => {
      if (slot !== null && holderOf(slot)) host.slots[i] = null;
    });
    this.#servePending();
  }

  /** A host with `count` free GPUs for `person`: one that is on (or booting), their own first; else a stopped one. */
  #candidate(person: number, count: number): SimHost | undefined {
    const home = this.params.people[person]!.homeHost;
    const order = [...this.hosts].sort(
      (a, b) => Number(b.spec.name === home) - Number(a.spec.name === home) || a.index - b.index,
    );
    const free = (host: SimHost) => host.slots.reduce((n, slot) => n + (slot === null ? 1 : 0), 0);
    return (
      order.find((host) => host.power !== "off" && free(host) >= count) ??
      order.find((host) => host.power === "off" && free(host) >= count)
    );
  }

  /**
   * GPUs were freed: with the waiting list the first requests in line that fit get them now; with
   * "notify me when free" each waiter that would fit is told, and acts after their quick-answer
   * delay (the next morning when away), when the GPUs may be gone again.
   */
  #servePending(): void {
    if (this.#pending.length === 0) return;
    const queue = this.params.waitMode === "queue";
    for (const waiter of [...this.#pending]) {
      if (waiter.notified || this.#candidate(waiter.person, waiter.count) === undefined) continue;
      if (queue) {
        this.#pending.splice(this.#pending.indexOf(waiter), 1);
        this.#acquire(waiter.person, waiter.count, waiter.start, waiter.sinceMs);
        continue;
      }
      waiter.notified = true;
      const answers = this.params.answers;
      const actMs = this.calendar.atWork(waiter.person, this.nowMs)
        ? this.nowMs + answers.quickMedianMin * answers.slowdown * MINUTE_MS
        : (this.calendar.nextArrivalMs(waiter.person, this.nowMs) ?? this.nowMs + DAY_MS);
      this.schedule(actMs, () => {
        this.#pending.splice(this.#pending.indexOf(waiter), 1);
        this.#acquire(waiter.person, waiter.count, waiter.start, waiter.sinceMs);
      });
    }
  }

  #finishRun(run: SimRun): void {
    run.phase = "done";
    this.#freeSlots(run.host, (h) => h.kind === "run" && h.run === run);
    this.runs.delete(run.id);
    this.events.push({ kind: "run-finished", atMs: this.nowMs, runId: run.id, host: run.host });
    const t = this.params.tidy;
    const rng = Rng.keyed(this.params.seed, STREAM_NOTICE, run.id);
    const cal = this.calendar;
    const noticeMs = cal.atWork(run.person, this.nowMs)
      ? this.nowMs
      : (cal.nextArrivalMs(run.person, this.nowMs) ?? this.nowMs + 3 * DAY_MS);
    const day = cal.dayOf(this.nowMs);
    const overWeekend = cal.isWeekend(day) || (cal.isFriday(day) && !cal.atWork(run.person, this.nowMs));
    const tidyChance = cal.atWork(run.person, this.nowMs)
      ? t.presentChance
      : overWeekend
        ? t.afterWeekendChance
        : t.nextMorningChance;
    const tidies = rng.chance(tidyChance);
    this.schedule(noticeMs, () => {
      this.hooks.runFinishedNoticed(run);
      const host = this.host(run.host);
      if (tidies && host.power === "on" && !this.hostInUse(run.host)) this.hooks.tidy(run.person, run.host);
    });
  }

  #killRun(run: SimRun): void {
    const wasRunning = runInProgress(run) || run.phase === "waiting";
    const keptMin = checkpointedMin(run);
    run.phase = "killed";
    this.runs.delete(run.id);
    if (!wasRunning) return;
    const p = this.params.runs;
    const restartMs = this.calendar.atWork(run.person, this.nowMs)
      ? this.nowMs + run.rng.between(p.restartAfterMin) * MINUTE_MS
      : (this.calendar.nextArrivalMs(run.person, this.nowMs) ?? this.nowMs + DAY_MS) +
        run.rng.between(p.restartAfterMin) * MINUTE_MS;
    // The data and the build are cached now: setup takes at most the restart's own minimum.
    const plan = { ...run.plan, setupMin: Math.min(run.plan.setupMin, p.setupMin[0]) };
    this.schedule(Math.round(restartMs), () => this.#startRun(run.person, plan, keptMin, run.id));
  }

  #openNotebook(person: number, fate: SimNotebook["fate"], forgottenMs: number): void {
    this.#acquire(person, 1, (host, gpus) => {
      const id = this.#nextId++;
      const notebook: SimNotebook = {
        id,
        person,
        host: host.spec.name,
        gpu: gpus[0]!,
        phase: "waiting",
        fate,
        forgottenMs,
        burstLeftMin: 0,
        burstUtilPct: 0,
        computedMin: 0,
        rng: Rng.keyed(this.params.seed, STREAM_NOTEBOOK, id),
      };
      this.notebooks.set(id, notebook);
      host.slots[notebook.gpu] = { kind: "notebook", notebook };
      const begin = () => {
        notebook.phase = this.calendar.atWork(person, this.nowMs) ? "open" : "resume";
        this.events.push({
          kind: "notebook-opened",
          atMs: this.nowMs,
          notebookId: id,
          person: this.params.people[person]!.id,
          host: notebook.host,
        });
      };
      if (host.power === "on") begin();
      else host.waiting.push(begin);
    });
  }

  #closeNotebook(notebook: SimNotebook): void {
    notebook.phase = "closed";
    this.#freeSlots(notebook.host, (h) => h.kind === "notebook" && h.notebook === notebook);
    this.notebooks.delete(notebook.id);
    this.lastInputMs.delete(`${notebook.person}:${notebook.host}`);
    this.events.push({
      kind: "notebook-closed",
      atMs: this.nowMs,
      notebookId: notebook.id,
      host: notebook.host,
    });
  }

  #killNotebook(notebook: SimNotebook, reopen: boolean): void {
    notebook.phase = "killed";
    this.notebooks.delete(notebook.id);
    if (!reopen) return;
    const { person } = notebook;
    const plan = this.calendar.plan(person, this.calendar.dayOf(this.nowMs));
    const backMs = this.calendar.atWork(person, this.nowMs)
      ? Math.max(
          this.nowMs + 10 * MINUTE_MS,
          plan.lunchToMs > this.nowMs && plan.lunchFromMs <= this.nowMs ? plan.lunchToMs : 0,
        )
      : (this.calendar.nextArrivalMs(person, this.nowMs) ?? this.nowMs + DAY_MS);
    this.schedule(backMs, () => {
      if (this.#openNotebookOf(person) === null)
        this.#openNotebook(person, notebook.fate, notebook.forgottenMs);
    });
  }

  #advanceNotebook(notebook: SimNotebook): void {
    if (notebook.phase !== "open") {
      notebook.burstLeftMin = 0;
      return;
    }
    const atDesk = this.calendar.atDesk(notebook.person, this.nowMs);
    if (atDesk) this.lastInputMs.set(`${notebook.person}:${notebook.host}`, this.nowMs);
    const p = this.params.notebooks;
    if (notebook.burstLeftMin > 0) notebook.burstLeftMin--;
    else if (atDesk && notebook.rng.chance(1 / p.burstEveryMin)) {
      notebook.burstLeftMin = notebook.rng.int(p.burstMin);
      notebook.burstUtilPct = 40 + notebook.rng.next() * 50;
    }
    if (notebook.burstLeftMin > 0) notebook.computedMin++;
  }
}
