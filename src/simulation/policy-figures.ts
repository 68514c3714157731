import type { TeamEvent } from "./team-events.ts";
import type { TeamLedger } from "./team-ledger.ts";
import type { TeamParams } from "./team-params.ts";

/** What one policy did to the team's month, as the outcome benchmark reports it. Money in the team currency. */
export interface PolicyFigures {
  /** Capacity unused: hosts on with every GPU below 10 %, at what an hour of them running costs. */
  idle_cost: number;
  /** The part of `idle_cost` a stop would have saved (a bought host's write-off runs on when off). */
  idle_cost_saveable: number;
  /** What the hosts cost (cloud hours, write-off, upkeep, power). */
  total_cost: number;
  /** `total_cost` + work lost at the host's price per GPU-hour + people's waiting for starts. */
  full_cost: number;
  /** Stops that interrupted a run, or killed a notebook whose person came back within the day. */
  false_stops: number;
  /** The victims of those stops: runs interrupted and notebooks lost that were needed again. */
  victims: number;
  victim_runs: number;
  victim_notebooks: number;
  /**
   * GPU-hours since the last checkpoint of every interrupted run, plus, for every notebook killed
   * whose person came back within the day, the GPU time its cells computed since its kernel started.
   */
  work_lost_gpu_hours: number;
  /** The notebooks' part of `work_lost_gpu_hours`. */
  work_lost_notebook_gpu_hours: number;
  /** Those GPU-hours at the price per GPU-hour of the host they ran on. */
  work_lost_cost: number;
  /** From a host's every GPU going idle to its stop (stops of idle hosts, by anyone). */
  stop_delay_p50_min: number | null;
  stop_delay_p90_min: number | null;
  /** Idle alerts, notices, escalations and DMs, per person per week. */
  interruptions_per_person_week: number;
  stops: number;
  /** Times someone had to start a stopped host (or wait for one booting), and the minutes waited. */
  start_waits: number;
  start_wait_min: number;
  /** The minutes waited at `personHourCost`. */
  start_wait_cost: number;
  idle_host_hours: number;
}

/** The figures from the event log and the ledger; every count is one of the log's events. */
export function figuresOf(
  events: readonly TeamEvent[],
  ledger: TeamLedger,
  params: TeamParams,
): PolicyFigures {
  const t = {
    falseStops: 0,
    lost: 0,
    lostNotebooks: 0,
    lostCost: 0,
    stops: 0,
    waits: 0,
    waitMin: 0,
    messages: 0,
    runs: 0,
    notebooks: 0,
  };
  const delays: number[] = [];
  for (const event of events) {
    if (event.kind === "host-stopped") {
      t.stops++;
      if (event.falseStop) t.falseStops++;
      if (event.idleForMin !== null) delays.push(event.idleForMin);
    } else if (event.kind === "killed" && event.falseStop) {
      if (event.victim === "run") t.runs++;
      else {
        t.notebooks++;
        t.lostNotebooks += event.lostGpuHours;
      }
      t.lost += event.lostGpuHours;
      t.lostCost += event.lostGpuHours * ledger.gpuHourPrice(event.host);
    } else if (event.kind === "start-wait") {
      t.waits++;
      t.waitMin += event.waitMin;
    } else if (event.kind === "message") t.messages++;
  }
  const personWeeks = (params.people.length * params.days) / 7;
  const waitCost = (t.waitMin / 60) * params.personHourCost;
  return {
    idle_cost: round(ledger.idleCost),
    idle_cost_saveable: round(ledger.idleSaveable),
    total_cost: round(ledger.totalCost),
    full_cost: round(ledger.totalCost + t.lostCost + waitCost),
    false_stops: t.falseStops,
    victims: t.runs + t.notebooks,
    victim_runs: t.runs,
    victim_notebooks: t.notebooks,
    work_lost_gpu_hours: round(t.lost),
    work_lost_notebook_gpu_hours: round(t.lostNotebooks),
    work_lost_cost: round(t.lostCost),
    stop_delay_p50_min: quantile(delays, 0.5),
    stop_delay_p90_min: quantile(delays, 0.9),
    interruptions_per_person_week: round(t.messages / personWeeks),
    stops: t.stops,
    start_waits: t.waits,
    start_wait_min: round(t.waitMin),
    start_wait_cost: round(waitCost),
    idle_host_hours: round(ledger.idleHostMinutes / 60),
  };
}

function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return round(sorted[rank]!, 1);
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
