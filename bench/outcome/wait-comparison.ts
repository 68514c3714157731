import { runTeamMonth } from "../../src/simulation/run-team-month.ts";
import { DEFAULT_TEAM_PARAMS, type TeamParams, type WaitMode } from "../../src/simulation/team-params.ts";

/** How long work that found no free GPUs waited for them, under one way of waiting. */
export interface WaitFigures {
  /** Work that had to wait and then got its GPUs. */
  waits: number;
  p50_min: number | null;
  p90_min: number | null;
}

/** One team's figures: the waiting list against "notify me when free". */
export interface WaitComparison {
  team: "default" | "busier";
  people: number;
  queue: WaitFigures;
  notify: WaitFigures;
}

/** The default team, and a busier one: twice the people (each home host shared by twice as many) on the same 4 hosts. */
export function waitTeams(
  base: TeamParams = DEFAULT_TEAM_PARAMS,
): Array<{ team: WaitComparison["team"]; params: TeamParams }> {
  const twins = base.people.map((person) => ({ ...person, id: `${person.id}2`, login: `${person.login}2` }));
  return [
    { team: "default", params: base },
    { team: "busier", params: { ...base, people: [...base.people, ...twins] } },
  ];
}

/**
 * The median wait for GPUs with the waiting list (`--wait`: granted the moment they are free) and
 * with "notify me when free" (the person acts on the DM after their quick-answer median, or the next
 * morning, and may find the GPUs gone again), on the same seed and plans. Run under the `none` policy
 * so that the waiting alone differs (a stopped host's GPUs count as free in both: starting it is the
 * person's part).
 */
export async function compareWaits(base: TeamParams = DEFAULT_TEAM_PARAMS): Promise<WaitComparison[]> {
  const out: WaitComparison[] = [];
  for (const { team, params } of waitTeams(base)) {
    out.push({
      team,
      people: params.people.length,
      queue: await waitFigures(params, "queue"),
      notify: await waitFigures(params, "notify"),
    });
  }
  return out;
}

async function waitFigures(params: TeamParams, waitMode: WaitMode): Promise<WaitFigures> {
  const month = await runTeamMonth({ ...params, waitMode }, "none");
  const waits = month.events
    .flatMap((event) => (event.kind === "gpu-wait" ? [event.waitMin] : []))
    .sort((a, b) => a - b);
  const at = (q: number) =>
    waits.length === 0 ? null : Math.round(waits[Math.min(waits.length - 1, Math.floor(waits.length * q))]!);
  return { waits: waits.length, p50_min: at(0.5), p90_min: at(0.9) };
}

/** The markdown table of {@link compareWaits} for docs/outcome.md. */
export function waitTable(rows: readonly WaitComparison[], days: number, seed: number): string {
  const cell = (f: WaitFigures) => `${f.p50_min ?? "–"} / ${f.p90_min ?? "–"} (${f.waits})`;
  return [
    `${days} simulated days, seed ${seed}, 4 hosts × 8 GPUs; minutes from finding no free GPUs to getting them, p50 / p90 (how many waited).`,
    "",
    "| team | waiting list (`--wait`) | notify me when free |",
    "|---|--:|--:|",
    ...rows.map((row) => `| ${row.team} (${row.people} people) | ${cell(row.queue)} | ${cell(row.notify)} |`),
  ].join("\n");
}
