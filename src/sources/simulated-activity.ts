import { HOUR_MS, MINUTE_MS } from "../shared/clock.ts";
import type { LocalCalendar } from "./simulated-calendar.ts";
import type { GpuModelSpec } from "./simulated-gpu-models.ts";
import { hash4, unit4 } from "./simulated-random.ts";
import type { SimulatedRole } from "./simulated-roles.ts";

/** The people who use the simulated fleet. */
export const TEAM_USERS: readonly string[] = [
  "alice",
  "bob",
  "carol",
  "dave",
  "erin",
  "frank",
  "grace",
  "heidi",
];

export const INFERENCE_USER = "svc-infer";

const TRAINING_NAMES = [
  "python train.py",
  "python finetune_lora.py",
  "python pretrain.py",
  "python train_diffusion.py",
];
const JOB_NAMES = ["python eval.py", "python profile_step.py", "python sweep.py", "python debug_loader.py"];
const INFERENCE_SERVERS = [
  { name: "python -m vllm.entrypoints.openai.api_server", memFrac: 0.9 },
  { name: "tritonserver", memFrac: 0.62 },
];
export const NOTEBOOK_PROCESS = "python -m ipykernel_launcher";
const NOTEBOOK_MEM_MIB = 30_720;

/** A static description of one simulated host. */
export interface SimulatedHostSpec {
  readonly index: number;
  readonly name: string;
  readonly role: SimulatedRole;
  readonly model: GpuModelSpec;
  readonly gpuCount: number;
  /** The person who mostly uses the host. */
  readonly owner: string;
}

export type WorkKind = "training" | "job" | "notebook" | "inference";

/** Something running on a contiguous range of a host's GPUs, one process per GPU. */
export interface Work {
  kind: WorkKind;
  /** Inclusive start; `-Infinity` for work that was there before any instant the simulator is asked about. */
  startMs: number;
  /** Exclusive end; `Infinity` for work that never ends. */
  endMs: number;
  /** First GPU index used. */
  gpuFrom: number;
  /** One past the last GPU index used. */
  gpuTo: number;
  user: string;
  processName: string;
  /** Pid of the process on `gpuFrom`; the one on GPU g has `pid + (g - gpuFrom)`. */
  pid: number;
  /** Mean utilisation while it runs (inference: the mean at the daily peak); 0 = memory held, no compute. */
  utilPct: number;
  memMiBPerGpu: number;
}

/** A login session as `who` would list it. */
export interface Session {
  user: string;
  line: string;
  from: string;
  startMs: number;
  /** Until this instant the person is typing; afterwards the session only lingers (idle time grows). */
  activeUntilMs: number;
  endMs: number;
}

/** An interval when the host was unreachable. */
export interface Outage {
  startMs: number;
  endMs: number;
}

const SALT_TRAIN = 1_000;
const SALT_INTERACTIVE = 2_000;
const SALT_PERSISTENT = 3_000;
const SALT_OUTAGE = 4_000;

/** How many local days back a day plan can still reach: the longest work or session lasts under 48 h. */
export const PLAN_REACH_DAYS = 3;

/** Six-hour blocks (UTC) in which a flaky host may have one outage of 5–60 min. */
export const OUTAGE_BLOCK_MS = 6 * HOUR_MS;
const OUTAGE_CHANCE = 0.4;

function pick<T>(items: readonly T[], u: number): T {
  return items[Math.min(items.length - 1, Math.floor(u * items.length))]!;
}

function laptopAddress(user: string): string {
  const index = TEAM_USERS.indexOf(user);
  return `10.20.0.${index >= 0 ? 11 + index : 99}`;
}

/** Work that lasts the whole simulation: the notebook's kernel, the inference server. */
export function persistentWork(seed: number, host: SimulatedHostSpec): Work[] {
  const r = (k: number) => unit4(seed, host.index, 0, SALT_PERSISTENT + k);
  if (host.role === "notebook") {
    const gpus = host.gpuCount >= 4 && r(0) < 0.4 ? 2 : 1;
    return [
      {
        kind: "notebook",
        startMs: Number.NEGATIVE_INFINITY,
        endMs: Number.POSITIVE_INFINITY,
        gpuFrom: 0,
        gpuTo: gpus,
        user: host.owner,
        processName: NOTEBOOK_PROCESS,
        pid: 10_000 + Math.floor(r(1) * 900_000),
        utilPct: 0,
        memMiBPerGpu: Math.min(NOTEBOOK_MEM_MIB, Math.round(host.model.memTotalMiB * 0.85)),
      },
    ];
  }
  if (host.role === "inference") {
    const server = pick(INFERENCE_SERVERS, r(0));
    return [
      {
        kind: "inference",
        startMs: Number.NEGATIVE_INFINITY,
        endMs: Number.POSITIVE_INFINITY,
        gpuFrom: 0,
        gpuTo: host.gpuCount,
        user: INFERENCE_USER,
        processName: server.name,
        pid: 10_000 + Math.floor(r(1) * 900_000),
        utilPct: 45 + Math.floor(r(2) * 10),
        memMiBPerGpu: Math.round(host.model.memTotalMiB * server.memFrac),
      },
    ];
  }
  return [];
}

/** Adds the work and sessions that start on local day `day` to `work` and `sessions`. */
export function planDay(
  seed: number,
  host: SimulatedHostSpec,
  day: number,
  calendar: LocalCalendar,
  work: Work[],
  sessions: Session[],
): void {
  if (host.role === "training" || host.role === "flaky")
    planTraining(seed, host, day, calendar, work, sessions);
  else if (host.role === "interactive") planInteractive(seed, host, day, calendar, work, sessions);
}

function planTraining(
  seed: number,
  host: SimulatedHostSpec,
  day: number,
  calendar: LocalCalendar,
  work: Work[],
  sessions: Session[],
): void {
  const r = (k: number) => unit4(seed, host.index, day, SALT_TRAIN + k);
  const weekend = calendar.isWeekend(day);
  const dayStartMs = calendar.startMs(day);
  const n = host.gpuCount;
  if (r(0) < (weekend ? 0.18 : 0.8)) {
    const startHour = weekend ? 10 + r(1) * 12 : 8.5 + r(1) ** 1.6 * 9.5;
    const startMs = dayStartMs + Math.round(startHour * HOUR_MS);
    const hours = r(2) < 0.3 ? 14 + r(3) * 26 : 2 + r(3) * 8;
    const gpus = r(4) < 0.6 || n === 1 ? n : 1 + Math.floor(r(5) * (n - 1));
    const user = r(6) < 0.7 ? host.owner : pick(TEAM_USERS, r(7));
    work.push({
      kind: "training",
      startMs,
      endMs: startMs + Math.round(hours * HOUR_MS),
      gpuFrom: 0,
      gpuTo: gpus,
      user,
      processName: pick(TRAINING_NAMES, r(8)),
      pid: 2_000 + Math.floor(r(9) * 3_000_000),
      utilPct: 89 + r(10) * 8,
      memMiBPerGpu: Math.round(host.model.memTotalMiB * (0.75 + r(11) * 0.22)),
    });
    const loginMs = startMs - Math.round((2 + r(12) * 8) * MINUTE_MS);
    const activeUntilMs = startMs + Math.round((15 + r(13) * 75) * MINUTE_MS);
    sessions.push({
      user,
      line: `pts/${Math.floor(r(14) * 4)}`,
      from: laptopAddress(user),
      startMs: loginMs,
      activeUntilMs,
      endMs: activeUntilMs + Math.round(r(15) * 5 * MINUTE_MS),
    });
  }
  if (!weekend && r(20) < 0.35) {
    const startMs = dayStartMs + Math.round((13 + r(21) * 7) * HOUR_MS);
    const gpus = 1 + Math.floor(r(22) * Math.max(1, Math.floor(n / 2)));
    const user = pick(TEAM_USERS, r(23));
    work.push({
      kind: "training",
      startMs,
      endMs: startMs + Math.round((1 + r(24) * 5) * HOUR_MS),
      gpuFrom: n - gpus,
      gpuTo: n,
      user,
      processName: pick(TRAINING_NAMES, r(25)),
      pid: 2_000 + Math.floor(r(26) * 3_000_000),
      utilPct: 86 + r(27) * 10,
      memMiBPerGpu: Math.round(host.model.memTotalMiB * (0.6 + r(28) * 0.3)),
    });
  }
}

function planInteractive(
  seed: number,
  host: SimulatedHostSpec,
  day: number,
  calendar: LocalCalendar,
  work: Work[],
  sessions: Session[],
): void {
  const r = (k: number) => unit4(seed, host.index, day, SALT_INTERACTIVE + k);
  const weekend = calendar.isWeekend(day);
  if (r(0) >= (weekend ? 0.1 : 0.85)) return;
  const dayStartMs = calendar.startMs(day);
  const n = host.gpuCount;
  const startMs = dayStartMs + Math.round((weekend ? 11 : 8.5 + r(1) * 2) * HOUR_MS);
  const activeUntilMs = dayStartMs + Math.round((weekend ? 13 + r(2) * 3 : 16.5 + r(2) * 3) * HOUR_MS);
  const endMs =
    r(3) < 0.25
      ? calendar.startMs(day + 1) + Math.round((8 + r(4)) * HOUR_MS)
      : activeUntilMs + Math.round(r(4) * 10 * MINUTE_MS);
  const user = host.owner;
  sessions.push({
    user,
    line: `pts/${Math.floor(r(5) * 4)}`,
    from: laptopAddress(user),
    startMs,
    activeUntilMs,
    endMs,
  });
  const jobs = 1 + Math.floor(r(6) * 4);
  const spanMs = activeUntilMs - startMs - 15 * MINUTE_MS;
  for (let j = 0; j < jobs; j++) {
    const k = 10 + j * 8;
    const jobStartMs = startMs + Math.round(r(k) * spanMs);
    const gpuFrom = Math.floor(r(k + 1) * n);
    const gpuTo = Math.min(n, gpuFrom + (r(k + 2) < 0.3 ? 2 : 1));
    work.push({
      kind: "job",
      startMs: jobStartMs,
      endMs: jobStartMs + Math.round((15 + r(k + 3) * 105) * MINUTE_MS),
      gpuFrom,
      gpuTo,
      user,
      processName: pick(JOB_NAMES, r(k + 4)),
      pid: 2_000 + Math.floor(r(k + 5) * 3_000_000),
      utilPct: 40 + r(k + 6) * 55,
      memMiBPerGpu: Math.round(host.model.memTotalMiB * (0.2 + r(k + 7) * 0.5)),
    });
  }
}

/** The outage a flaky host is in at `atMs`, or null when it answers. Other roles never drop off. */
export function outageAt(seed: number, host: SimulatedHostSpec, atMs: number): Outage | null {
  if (host.role !== "flaky") return null;
  const block = Math.floor(atMs / OUTAGE_BLOCK_MS);
  for (let b = block; b >= block - 1; b--) {
    const outage = outageInBlock(seed, host.index, b);
    if (outage !== null && outage.startMs <= atMs && atMs < outage.endMs) return outage;
  }
  return null;
}

function outageInBlock(seed: number, hostIndex: number, block: number): Outage | null {
  if (unit4(seed, hostIndex, block, SALT_OUTAGE) >= OUTAGE_CHANCE) return null;
  const startMs =
    block * OUTAGE_BLOCK_MS + Math.floor(unit4(seed, hostIndex, block, SALT_OUTAGE + 1) * OUTAGE_BLOCK_MS);
  const minutes = 5 + Math.floor(unit4(seed, hostIndex, block, SALT_OUTAGE + 2) * 55);
  return { startMs, endMs: startMs + minutes * MINUTE_MS };
}

/** A stable GPU uuid in nvidia-smi's `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` form. */
export function gpuUuid(seed: number, hostIndex: number, gpuIndex: number): string {
  let hex = "";
  for (let k = 0; k < 4; k++)
    hex += hash4(seed, hostIndex, gpuIndex, 0x7575 + k)
      .toString(16)
      .padStart(8, "0");
  return `GPU-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
