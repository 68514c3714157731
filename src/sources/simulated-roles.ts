import { mulberry32, shuffleInPlace } from "./simulated-random.ts";

/**
 * What a simulated host is scripted to do; tests and benchmarks assert against it as ground truth.
 * - `training`: runs lasting hours on all or some GPUs, mostly started in working hours; idle nights and weekends.
 * - `interactive`: someone logged in over SSH in working hours running short jobs; the session sometimes stays overnight.
 * - `inference`: a model server on every GPU at a steady moderate load, day and night.
 * - `notebook`: a Jupyter kernel holding GPU memory at 0 % utilisation, nobody logged in.
 * - `forgotten`: idle for days, memory free, nobody logged in.
 * - `flaky`: like `training`, but the host drops off the network now and then (polls fail as "unreachable").
 */
export type SimulatedRole = "training" | "interactive" | "inference" | "notebook" | "forgotten" | "flaky";

/** Share of each role in a large fleet. */
export const ROLE_SHARES: Readonly<Record<SimulatedRole, number>> = {
  training: 0.5,
  interactive: 0.15,
  notebook: 0.09,
  forgotten: 0.09,
  flaky: 0.09,
  inference: 0.08,
};

/** The roles in the order a fleet too small to hold them all gets them. */
export const ROLE_PRIORITY: readonly SimulatedRole[] = [
  "training",
  "forgotten",
  "notebook",
  "flaky",
  "inference",
  "interactive",
];

/**
 * How many hosts play each role: every role at least once when there are enough hosts, the rest
 * shared out by {@link ROLE_SHARES} (largest remainder, so the counts add up to `hosts`).
 */
export function roleCounts(hosts: number): Record<SimulatedRole, number> {
  const counts: Record<SimulatedRole, number> = {
    training: 0,
    interactive: 0,
    notebook: 0,
    forgotten: 0,
    flaky: 0,
    inference: 0,
  };
  if (hosts < ROLE_PRIORITY.length) {
    for (const role of ROLE_PRIORITY.slice(0, hosts)) counts[role] = 1;
    return counts;
  }
  const rest = hosts - ROLE_PRIORITY.length;
  const remainders: { role: SimulatedRole; remainder: number }[] = [];
  let given = 0;
  for (const role of ROLE_PRIORITY) {
    const exact = ROLE_SHARES[role] * rest;
    const whole = Math.floor(exact);
    counts[role] = 1 + whole;
    given += whole;
    remainders.push({ role, remainder: exact - whole });
  }
  remainders.sort((a, b) => b.remainder - a.remainder);
  for (let i = 0; given < rest; i++, given++) {
    const next = remainders[i % remainders.length]!;
    counts[next.role] += 1;
  }
  return counts;
}

/** One role per host index, in a seed-dependent order. */
export function assignRoles(hosts: number, seed: number): SimulatedRole[] {
  const counts = roleCounts(hosts);
  const roles: SimulatedRole[] = [];
  for (const role of ROLE_PRIORITY) {
    for (let i = 0; i < counts[role]; i++) roles.push(role);
  }
  return shuffleInPlace(roles, mulberry32(seed ^ 0x5f3759df));
}

/**
 * Host names: `gpu-a` … `gpu-z`, then `gpu-aa` … `gpu-zz` for fleets up to 702 hosts; beyond that
 * `node-0001` … (zero-padded to at least four digits).
 */
export function simulatedHostName(index: number, hosts: number): string {
  if (hosts <= 702) {
    let n = index + 1;
    let letters = "";
    while (n > 0) {
      const rem = (n - 1) % 26;
      letters = String.fromCharCode(97 + rem) + letters;
      n = Math.floor((n - 1) / 26);
    }
    return `gpu-${letters}`;
  }
  const width = Math.max(4, String(hosts).length);
  return `node-${String(index + 1).padStart(width, "0")}`;
}
