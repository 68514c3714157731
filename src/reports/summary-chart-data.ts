import type { SummaryModel } from "./summary-model.ts";

/** One stacked series: a host, or the rest of the hosts together. */
export interface ChartSeries {
  /** The host's name; `null` for the others. */
  host: string | null;
  /** How many hosts the series holds (1 for a host). */
  hosts: number;
  /** Per day column, in the chart's unit. */
  daily: number[];
  total: number;
}

/** What the summary chart draws, in one unit: idle cost, or idle GPU-hours when no host has a price. */
export interface ChartData {
  unit: "cost" | "hours";
  /** Top hosts, largest first, then the others when there are any. */
  series: ChartSeries[];
  /** Per day column, every series together. */
  dayTotals: number[];
  total: number;
  /** GPUs with an idle hour without a price (left out of the cost). */
  unpricedGpus: number;
}

/** At most this many hosts get their own colour; the rest are stacked as "others". */
export const CHART_TOP_HOSTS = 8;

/**
 * Idle cost per day stacked by host: the hosts with the most idle cost, the rest as one series (never
 * an "others" of a single host). Idle GPU-hours instead when no idle hour has a price.
 */
export function summaryChartData(model: SummaryModel, topHosts = CHART_TOP_HOSTS): ChartData {
  const unit = model.hosts.some((host) => host.dailyIdleCost.some((cost) => cost > 0)) ? "cost" : "hours";
  const days = model.dayStartsMs.length;
  const ranked = model.hosts
    .map((host) => {
      const daily = unit === "cost" ? host.dailyIdleCost : host.dailyIdleGpuHours;
      return { host: host.host, hosts: 1, daily: [...daily], total: sum(daily) };
    })
    .filter((series) => series.total > 0)
    .sort((a, b) => b.total - a.total || (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  const shown = ranked.length <= topHosts + 1 ? ranked : ranked.slice(0, topHosts);
  const rest = ranked.slice(shown.length);
  const series: ChartSeries[] = [...shown];
  if (rest.length > 0) {
    const daily = Array.from({ length: days }, (_, day) => sum(rest.map((s) => s.daily[day] ?? 0)));
    series.push({ host: null, hosts: rest.length, daily, total: sum(daily) });
  }
  const dayTotals = Array.from({ length: days }, (_, day) => sum(series.map((s) => s.daily[day] ?? 0)));
  return { unit, series, dayTotals, total: sum(dayTotals), unpricedGpus: model.fleet.unpricedGpus };
}

/** Round axis steps (1, 2, 2.5, 5 × 10ⁿ) from 0 to at least `max`, about `count` of them. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step * 1e-9 || ticks.length < 2; i++) ticks.push(round(i * step));
  if (ticks[ticks.length - 1]! < max) ticks.push(round(ticks.length * step));
  return ticks;
}

function round(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
