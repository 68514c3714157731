import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { DAY_MS, HOUR_MS } from "../src/shared/clock.ts";
import { round } from "./report.ts";

// The `scale` run's biweekly summary (`summary_ms`): the bot's summary over a store holding 28 days of
// the scale fleet's hourly rollups (its hosts named cluster/host as the poller's store has them),
// built by the `summary` benchmark's builder (bench/summary-fleet.ts) once a day per size and kept in
// `.tmp/scale-history/`, read by bench/scale-summary-child.ts under the bot's heap flags with the run's
// engines as its sources (the container section asks every one, as the bot does).

/** What bench/scale-summary-child.ts is asked to do. */
export interface SummaryJob {
  /** The store: built there (`build`), else read in a transaction rolled back. */
  store: string;
  hosts: number;
  clusters: number;
  slotMs: number;
  /** The engines' URLs, one source (cluster) each. */
  urls: string[];
  build?: boolean;
  /**
   * `kept` (default): the summary 14 days before kept its period's sums (schema step 17), as in a bot
   * that posted it; the child keeps them first, untimed. `packs`: none kept, the trend reads the packs
   * (the first summary after an upgrade).
   */
  trend?: "kept" | "packs";
}

/**
 * The summary's slot: the next UTC midnight at least 6 h ahead, so the period ends after the engines'
 * recent samples and the kept store serves a day's runs.
 */
export const SUMMARY_SLOT_MS = Math.ceil((Date.now() + 6 * HOUR_MS) / DAY_MS) * DAY_MS;

/**
 * The scale fleet's host names as the poller's store has them: `a/node-00001`…, cluster `c` holding
 * hosts `c·⌈hosts/clusters⌉` onwards (scale.bench.ts splits them so).
 */
export function clusterHostNames(hosts: number, clusters: number): string[] {
  const perCluster = Math.ceil(hosts / clusters);
  return Array.from(
    { length: hosts },
    (_, h) =>
      `${String.fromCharCode(97 + Math.floor(h / perCluster))}/node-${String(h + 1).padStart(5, "0")}`,
  );
}

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, "scale-summary-child.ts");

/** The kept 28-day store of `hosts` and its build time (`null`: built by an earlier run). */
export interface SummaryStoreFile {
  path: string;
  built_s: number | null;
  gb: number;
}

/** The kept store for `hosts` × 8 GPUs in `clusters` and {@link SUMMARY_SLOT_MS}, built when missing. */
export async function summaryStoreFile(hosts: number, clusters: number): Promise<SummaryStoreFile> {
  const dir = join(here, "..", ".tmp", "scale-history");
  const stem = `summary-${hosts}h-${clusters}c-`;
  const path = join(dir, `${stem}${new Date(SUMMARY_SLOT_MS).toISOString().slice(0, 10)}.db`);
  let builtS: number | null = null;
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    for (const old of readdirSync(dir).filter((name) => name.startsWith(stem)))
      rmSync(join(dir, old), { force: true });
    const building = `${path}.building`;
    const started = performance.now();
    const job: SummaryJob = {
      store: building,
      hosts,
      clusters,
      slotMs: SUMMARY_SLOT_MS,
      urls: [],
      build: true,
    };
    const run = await runChild([], job);
    if (run.code !== 0) throw new Error(`building the summary store: ${run.tail.join("\n")}`);
    renameSync(building, path);
    builtS = round((performance.now() - started) / 1000, 0);
  }
  return { path, built_s: builtS, gb: round(statSync(path).size / 1e9, 2) };
}

/** The summary's figures; `null` where the child ended first (see `ended`). */
export interface ScaleSummary {
  /** The summary with its chart: the model, the message, the chart (PNG), the CSVs. */
  summary_ms: number | null;
  /** The whole `postSummary`: the same, the hour-of-week heatmap, the files queued in the outbox. */
  post_ms: number | null;
  /** ms per part, in order, of each phase (as far as it got). */
  parts: { summary: Record<string, number>; post: Record<string, number> };
  /** The child's own figures (GPUs summed, the container section, the files' sizes, its peak RSS). */
  detail: Record<string, unknown> | null;
  store: SummaryStoreFile;
  flags: string;
  /** When and why the child ended before its figures (its "FATAL ERROR" line, else its last). */
  ended: { ms: number; why: string } | null;
}

/** The bot's summary at {@link SUMMARY_SLOT_MS} over `store`, the engines at `urls`, under `flags`. */
export async function scaleSummary(
  store: SummaryStoreFile,
  hosts: number,
  clusters: number,
  urls: string[],
  flags: string[],
): Promise<ScaleSummary> {
  const job: SummaryJob = { store: store.path, hosts, clusters, slotMs: SUMMARY_SLOT_MS, urls };
  const started = performance.now();
  const run = await runChild(flags, job);
  const lines = run.stdout
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("{"));
  const figures = Object.assign({}, ...lines.map((line) => JSON.parse(line))) as Record<string, unknown>;
  const why =
    run.tail.find((line) => line.startsWith("FATAL ERROR") || line.startsWith("killed:")) ??
    run.tail.at(-1) ??
    "";
  return {
    summary_ms: typeof figures.summary_ms === "number" ? figures.summary_ms : null,
    post_ms: typeof figures.post_ms === "number" ? figures.post_ms : null,
    parts: partsOf(run.marks),
    detail: lines.length > 0 ? figures : null,
    store,
    flags: flags.join(" "),
    ended: run.code === 0 ? null : { ms: Math.round(performance.now() - started), why: why.slice(0, 300) },
  };
}

/** The child's mark after keeping the previous period's sums (untimed, before the summary). */
export const PREVIOUS_KEPT_MARK = "previous sums kept";

const PHASES = {
  summary: ["model", "message", "chart", "csv"],
  post: ["model_message", "chart", "heatmap", "csv", "queue"],
} as const;

/**
 * The marks' gaps, named: `open` (opening the store), `previous_kept` (the sums the summary before
 * kept, untimed), the summary's parts until `summary`,
 * then the post's until `post` (its first part is the model and the message, `heatmap` its read and its render).
 */
function partsOf(marks: { part: string; ms: number }[]): ScaleSummary["parts"] {
  const parts: ScaleSummary["parts"] = { summary: {}, post: {} };
  if (marks[0]?.part === "opened") parts.summary.open = marks[0].ms;
  let phase: keyof typeof PHASES = "summary";
  let step = 0;
  for (let i = 1; i < marks.length; i++) {
    const gap = marks[i]!.ms - marks[i - 1]!.ms;
    if (marks[i]!.part === PREVIOUS_KEPT_MARK) {
      parts.summary.previous_kept = gap;
      continue;
    }
    if (marks[i]!.part === "summary") {
      phase = "post";
      step = 0;
      continue;
    }
    const name = PHASES[phase][step++] ?? marks[i]!.part;
    parts[phase][name] = (parts[phase][name] ?? 0) + gap;
  }
  return parts;
}

/** How long the whole `postSummary` may run after the summary (a heap near its limit collects for minutes). */
const POST_LIMIT_MS = 120_000;

interface ChildRun {
  code: number | null;
  stdout: string;
  marks: { part: string; ms: number }[];
  tail: string[];
}

async function runChild(flags: string[], job: SummaryJob): Promise<ChildRun> {
  const child = spawn(process.execPath, [...flags, "--import", "tsx", CHILD, JSON.stringify(job)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 1_200_000);
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const marks: ChildRun["marks"] = [];
  const tail: string[] = [];
  let postTimer: NodeJS.Timeout | undefined;
  for await (const line of createInterface({ input: child.stderr })) {
    const mark = line.startsWith('{"part"') ? (JSON.parse(line) as ChildRun["marks"][number]) : null;
    if (mark) marks.push(mark);
    else tail.push(line);
    if (tail.length > 40) tail.shift();
    if (mark?.part === "summary")
      postTimer = setTimeout(() => {
        tail.push(
          `killed: postSummary still running ${POST_LIMIT_MS / 1000} s later, after its ${marks.at(-1)?.part}`,
        );
        child.kill("SIGKILL");
      }, POST_LIMIT_MS);
  }
  const code = await exited;
  clearTimeout(timer);
  clearTimeout(postTimer);
  return { code, stdout, marks, tail };
}
