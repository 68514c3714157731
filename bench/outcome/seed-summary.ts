import type { PolicyFigures } from "../../src/simulation/policy-figures.ts";
import { removedPct } from "./outcome-table.ts";

/** The measures the BENCH line gives per policy (each the median over the seeds). */
export interface PolicyMedians {
  idle_cost: number;
  idle_cost_saveable: number;
  total_cost: number;
  full_cost: number;
  idle_removed_pct: number;
  saveable_removed_pct: number;
  false_stops: number;
  victims: number;
  victim_runs: number;
  victim_notebooks: number;
  work_lost_gpu_hours: number;
  work_lost_notebook_gpu_hours: number;
  work_lost_cost: number;
  stop_delay_p50_min: number | null;
  interruptions_per_person_week: number;
  stops: number;
  start_waits: number;
  start_wait_min: number;
  start_wait_cost: number;
}

/** Per seed, per policy: the figures of one run. */
export type FiguresBySeed = ReadonlyMap<number, Readonly<Record<string, PolicyFigures>>>;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(value * 100) / 100;
}

/** The share of `none`'s stop-saveable idle cost a policy removes, in %. */
export function saveableRemovedPct(figures: PolicyFigures, none: PolicyFigures): number {
  return none.idle_cost_saveable === 0
    ? 0
    : Math.round((1 - figures.idle_cost_saveable / none.idle_cost_saveable) * 1000) / 10;
}

/** Each policy's medians over the seeds. */
export function policyMedians(
  bySeed: FiguresBySeed,
  policies: readonly string[],
): Record<string, PolicyMedians> {
  const out: Record<string, PolicyMedians> = {};
  for (const policy of policies) {
    const rows = [...bySeed.values()].map((figures) => ({ f: figures[policy]!, none: figures.none! }));
    const of = (pick: (row: (typeof rows)[number]) => number) => median(rows.map(pick));
    const delays = rows.flatMap(({ f }) => (f.stop_delay_p50_min === null ? [] : [f.stop_delay_p50_min]));
    out[policy] = {
      idle_cost: of(({ f }) => f.idle_cost),
      idle_cost_saveable: of(({ f }) => f.idle_cost_saveable),
      total_cost: of(({ f }) => f.total_cost),
      full_cost: of(({ f }) => f.full_cost),
      idle_removed_pct: of(({ f, none }) => removedPct(f, none)),
      saveable_removed_pct: of(({ f, none }) => saveableRemovedPct(f, none)),
      false_stops: of(({ f }) => f.false_stops),
      victims: of(({ f }) => f.victims),
      victim_runs: of(({ f }) => f.victim_runs),
      victim_notebooks: of(({ f }) => f.victim_notebooks),
      work_lost_gpu_hours: of(({ f }) => f.work_lost_gpu_hours),
      work_lost_notebook_gpu_hours: of(({ f }) => f.work_lost_notebook_gpu_hours),
      work_lost_cost: of(({ f }) => f.work_lost_cost),
      stop_delay_p50_min: delays.length === 0 ? null : median(delays),
      interruptions_per_person_week: of(({ f }) => f.interruptions_per_person_week),
      stops: of(({ f }) => f.stops),
      start_waits: of(({ f }) => f.start_waits),
      start_wait_min: of(({ f }) => f.start_wait_min),
      start_wait_cost: of(({ f }) => f.start_wait_cost),
    };
  }
  return out;
}

/** The headline over the seeds: the default policy's share of `none`'s idle cost removed. */
export function headline(bySeed: FiguresBySeed, policy: string) {
  const removed = [...bySeed.values()].map((figures) => removedPct(figures[policy]!, figures.none!));
  const runs = [...bySeed.values()].map((figures) => figures[policy]!);
  return {
    value: median(removed),
    worst: Math.min(...removed),
    best: Math.max(...removed),
    false_stops_max: Math.max(...runs.map((f) => f.false_stops)),
    victims_max: Math.max(...runs.map((f) => f.victims)),
  };
}

/** Markdown: per policy, the median, worst and best share removed over the seeds, and the medians that matter. */
export function seedsTable(bySeed: FiguresBySeed, policies: readonly string[], currency: string): string {
  const medians = policyMedians(bySeed, policies);
  const money = (value: number) => Math.round(value).toLocaleString("en-US");
  const rows = policies.map((policy) => {
    const h = headline(bySeed, policy);
    const m = medians[policy]!;
    const removed = policy === "none" ? "–" : `${h.value} % (${h.worst}–${h.best})`;
    const saveable = policy === "none" ? "–" : `${m.saveable_removed_pct} %`;
    return `| \`${policy}\` | ${removed} | ${saveable} | ${money(m.full_cost)} | ${m.false_stops} (max ${h.false_stops_max}) | ${m.victim_runs} / ${m.victim_notebooks} | ${money(m.work_lost_cost)} | ${Math.round(m.start_wait_min)} | ${m.interruptions_per_person_week.toFixed(1)} |`;
  });
  return [
    `Seeds ${[...bySeed.keys()].join(", ")}; medians over the seeds, ${currency}.`,
    "",
    `| policy | idle cost removed, median (worst–best) | stop-saveable idle cost removed | full cost (${currency}) | false stops (max) | victims: runs / notebooks | work lost (${currency}) | waiting for starts (min) | interruptions per person-week |`,
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ...rows,
  ].join("\n");
}
