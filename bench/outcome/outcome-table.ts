import type { PolicyFigures } from "../../src/simulation/policy-figures.ts";

export interface OutcomeSummary {
  /** Policy name → its figures (answers as drawn). */
  policies: Record<string, PolicyFigures>;
  /** Policy name → answer variant → figures. */
  sensitivity: Record<string, Record<string, PolicyFigures>>;
  days: number;
  seed: number;
  currency: string;
}

/** The share of `none`'s idle cost a policy removes, in %. */
export function removedPct(figures: PolicyFigures, none: PolicyFigures): number {
  return none.idle_cost === 0 ? 0 : Math.round((1 - figures.idle_cost / none.idle_cost) * 1000) / 10;
}

const money = (value: number) => Math.round(value).toLocaleString("en-US");
const minutes = (value: number | null) => (value === null ? "–" : String(Math.round(value)));

/** The policies table (Markdown). */
export function policyTable(summary: OutcomeSummary): string {
  const none = summary.policies.none!;
  const c = summary.currency;
  const rows = Object.entries(summary.policies).map(([name, f]) =>
    [
      `\`${name}\``,
      money(f.idle_cost),
      money(f.idle_cost_saveable),
      name === "none" ? "–" : `${removedPct(f, none)} %`,
      money(f.total_cost),
      money(f.full_cost),
      `${f.false_stops} (${f.victim_runs} / ${f.victim_notebooks})`,
      f.work_lost_gpu_hours.toFixed(1),
      `${minutes(f.stop_delay_p50_min)} / ${minutes(f.stop_delay_p90_min)}`,
      f.interruptions_per_person_week.toFixed(1),
      `${f.start_waits} (${Math.round(f.start_wait_min)} min)`,
    ].join(" | "),
  );
  return [
    `| policy | idle cost: capacity unused (${c}) | of it, a stop saves (${c}) | idle cost removed | cost of the hosts (${c}) | full cost (${c}) | false stops (victims: runs / notebooks) | work lost (GPU-h) | idle → stop p50 / p90 (min) | interruptions per person-week | starts waited for (wait) |`,
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** The sensitivity table: the bot's policies when people answer slower, or never. */
export function sensitivityTable(summary: OutcomeSummary): string {
  const none = summary.policies.none!;
  const rows: string[] = [];
  for (const [policy, variants] of Object.entries(summary.sensitivity)) {
    const all = { "as-drawn": summary.policies[policy]!, ...variants };
    for (const [variant, f] of Object.entries(all)) {
      rows.push(
        `| \`${policy}\` | ${variant} | ${removedPct(f, none)} % | ${f.false_stops} | ${f.work_lost_gpu_hours.toFixed(1)} | ${minutes(f.stop_delay_p50_min)} | ${f.interruptions_per_person_week.toFixed(1)} |`,
      );
    }
  }
  return [
    "| policy | people answer | idle cost removed | false stops | work lost (GPU-h) | idle → stop p50 (min) | interruptions per person-week |",
    "|---|---|--:|--:|--:|--:|--:|",
    ...rows,
  ].join("\n");
}

/** Each target of the issue, met or not, in one line each (of the policies run). */
export function targetLines(summary: OutcomeSummary): string[] {
  const p = summary.policies;
  const warden = p["gpu-warden"];
  const none = p.none!;
  if (warden === undefined) return [];
  const mark = (ok: boolean) => (ok ? "met" : "**not met**");
  const removed = removedPct(warden, none);
  const cheapest = Object.entries(p).sort(([, a], [, b]) => a.full_cost - b.full_cost)[0]!;
  const lines = [
    `- \`gpu-warden\` removes at least 80 % of \`none\`'s idle cost: ${removed} % — ${mark(removed >= 80)}`,
    `- \`gpu-warden\` makes no false stop: ${warden.false_stops} — ${mark(warden.false_stops === 0)}`,
    `- lowest full cost of all policies: ${money(warden.full_cost)}, lowest \`${cheapest[0]}\` ${money(cheapest[1].full_cost)} — ${mark(cheapest[0] === "gpu-warden")}`,
  ];
  const never = summary.sensitivity["gpu-warden"]?.never;
  if (never !== undefined) {
    const pct = removedPct(never, none);
    lines.push(`- removes at least 70 % when nobody ever answers: ${pct} % — ${mark(pct >= 70)}`);
  }
  const smart = p["nightly-smart"];
  if (smart !== undefined) {
    lines.push(
      `- people wait for starts no more than with \`nightly-smart\`: ${Math.round(warden.start_wait_min)} vs ${Math.round(smart.start_wait_min)} min — ${mark(warden.start_wait_min <= smart.start_wait_min)}`,
    );
  }
  return lines;
}

/** What goes between the markers in the README and in docs/outcome.md. */
export function outcomeBlock(summary: OutcomeSummary, chartPath: string): string {
  return [
    `![Idle and total cost per policy over ${summary.days} simulated days](${chartPath})`,
    "",
    `${summary.days} simulated days, seed ${summary.seed}, 4 hosts × 8 GPUs, 6 people; costs in ${summary.currency}.`,
    "",
    policyTable(summary),
    "",
    "Targets:",
    "",
    ...targetLines(summary),
  ].join("\n");
}

/** Replaces what lies between `<!-- NAME:start -->` and `<!-- NAME:end -->` in `text`. */
export function replaceBetween(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`markers ${start} … ${end} not found`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}
