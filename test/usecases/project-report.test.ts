import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { projectSummaryBlocks } from "../../src/bot/views/ledger/report-project.ts";
import { localDayOf } from "../../src/checks/local-day.ts";
import { workloadHoursOf } from "../../src/checks/workload-project.ts";
import type { GpuProcess, HostObservation } from "../../src/domain/observation.ts";
import { translator } from "../../src/messages/translator.ts";
import { projectCsv, projectTable } from "../../src/reports/project-table.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { readProjectAllocation, readProjectReport } from "../../src/usecases/ledger/project-report.ts";
import { shownText } from "../helpers/shown-blocks.ts";
import { gpu, tempDir } from "../store/store-fixtures.ts";
import { LedgerRig, STEP_MS } from "./ledger-rig.ts";

const files = tempDir("gw-projects-");
after(() => files.remove());

const H = 3_600_000;
const ZONE = "Europe/Berlin";
/**
 * Berlin, 24 October to 1 November 2026: summer time ends on the 25th (a 25-hour day) and October
 * ends at 23:00 UTC on the 31st. Projects: `nlp` (login carol), `vision` (namespace vision-ns), `rec`
 * (Prometheus label rec), `idle` (no GPU time at all).
 */
const CONFIG = {
  team: { timezone: ZONE, currency: "EUR" },
  costs: { electricity: { price_per_kwh: 0.3 } },
  hosts: {
    "gpu-a": { purchase_price: 17_532, lifetime_months: 12 },
    "gpu-b": { cost_per_hour: 10 },
    "gpu-c": { cost_per_hour: 4 },
  },
  projects: {
    nlp: { members: ["U0ALICE"], logins: ["carol"] },
    vision: { members: ["U0BOB"], namespaces: ["vision-ns"] },
    rec: { members: ["U0ERIN"], prometheus_label: "rec" },
    idle: { members: [] },
  },
};
const FROM_MS = Date.UTC(2026, 9, 23, 22);
const TO_MS = Date.UTC(2026, 10, 1, 23);
const NOW_MS = Date.UTC(2026, 10, 2, 0, 30);
const GPU_B_DOWN = [Date.UTC(2026, 9, 29, 3), Date.UTC(2026, 9, 29, 9)] as const;

/** Claims as written to the store: host, GPU (null: whole host), project, span, release. */
const CLAIMS = [
  {
    user: "U0ALICE",
    host: "gpu-a",
    gpuIndex: 0,
    project: "nlp",
    from: Date.UTC(2026, 9, 24, 10),
    until: Date.UTC(2026, 9, 26, 10),
    released: null,
  },
  {
    user: "U0BOB",
    host: "gpu-a",
    gpuIndex: null,
    project: "vision",
    from: Date.UTC(2026, 9, 31, 20),
    until: Date.UTC(2026, 10, 1, 4),
    released: Date.UTC(2026, 10, 1, 3),
  },
  {
    user: "U0ERIN",
    host: "gpu-b",
    gpuIndex: 0,
    project: null,
    from: Date.UTC(2026, 9, 28, 0),
    until: Date.UTC(2026, 9, 28, 6),
    released: null,
  },
] as const;

const proc = (extra: Partial<GpuProcess>): GpuProcess => ({
  pid: 1,
  user: null,
  name: "python",
  usedMemoryMiB: 1000,
  container: null,
  pod: null,
  namespace: null,
  ...extra,
});

/** What runs on each GPU at `atMs` (utilisation constant within each clock hour). */
function fleetAt(atMs: number): HostObservation[] {
  const hour = new Date(atMs).getUTCHours();
  const base = {
    source: "ssh" as const,
    atMs,
    ok: true as const,
    sessions: [],
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  };
  const aBusy = hour >= 8 && hour < 20;
  const a1Busy = hour >= 12 && hour < 14;
  const cLabel = hour >= 12;
  const gpuB: HostObservation =
    atMs >= GPU_B_DOWN[0] && atMs < GPU_B_DOWN[1]
      ? { host: "gpu-b", source: "ssh", atMs, ok: false, cause: "timeout", message: "timed out" }
      : {
          host: "gpu-b",
          ...base,
          gpus: [gpu(0, { utilPct: 90, processes: [proc({ namespace: "vision-ns", pod: "train" })] })],
        };
  return [
    {
      host: "gpu-a",
      ...base,
      gpus: [
        gpu(0, { utilPct: aBusy ? 80 : 0 }),
        gpu(1, { utilPct: a1Busy ? 70 : 0, processes: a1Busy ? [proc({ user: "dave" })] : [] }),
      ],
    },
    gpuB,
    {
      host: "gpu-c",
      ...base,
      gpus: [
        gpu(0, {
          utilPct: 60,
          processes: [
            cLabel ? proc({ namespace: "misc", pod: "p", projectLabel: "rec" }) : proc({ user: "carol" }),
          ],
        }),
      ],
    },
  ];
}

function rig() {
  const r = new LedgerRig(files.file(`projects-${Math.random()}.db`), CONFIG, NOW_MS);
  const state = createBotStateStore(r.db);
  r.write(FROM_MS, TO_MS + STEP_MS, (atMs) => {
    const observations = fleetAt(atMs);
    state.workloads.record(workloadHoursOf(observations));
    return observations;
  });
  for (const c of CLAIMS) {
    const claim = state.claims.add({
      host: c.host,
      gpuIndex: c.gpuIndex,
      user: c.user,
      fromMs: c.from,
      untilMs: c.until,
      note: "",
      project: c.project,
    });
    if (c.released !== null) state.claims.release([claim.id], c.released, c.user, "released");
  }
  state.claims.expireDue(NOW_MS, "gpu-warden");
  const waiting = state.queue.add({
    user: "U0ALICE",
    want: { kind: "count", count: 2, model: null },
    durationMs: 4 * H,
    note: "",
    createdAtMs: Date.UTC(2026, 9, 31, 18),
    project: "nlp",
    priority: 0,
  });
  state.queue.move(waiting.id, "waiting", "cancelled", Date.UTC(2026, 10, 1, 2));
  const deps = {
    ...r.deps,
    config: r.config,
    claims: state.claims,
    queue: state.queue,
    workloads: state.workloads,
  };
  return { r, deps };
}

type Totals = { claimed: number; busy: number; used: number; idle: number };

/**
 * The allocation recomputed from the samples themselves, 10 minutes at a time: who held the GPU then,
 * else whose workload ran, priced at the host-day's rates (busy and unknown minutes share the cost
 * less the idle cost; idle minutes share the idle cost).
 */
function recompute(month: string, ledger: ReturnType<LedgerRig["ledger"]["between"]>) {
  const rows = new Map<string | null, Totals>();
  const row = (p: string | null) => {
    const found = rows.get(p) ?? { claimed: 0, busy: 0, used: 0, idle: 0 };
    rows.set(p, found);
    return found;
  };
  const rates = new Map(
    ledger.map((d) => [
      `${d.day}|${d.host}`,
      {
        busy: ((d.cost ?? 0) - (d.idleCost ?? 0)) / ((d.busyGpuHours + d.unknownGpuHours) * 60),
        idle: (d.idleCost ?? 0) / (d.idleGpuHours * 60),
      },
    ]),
  );
  const workloadProject = (p: GpuProcess | undefined): string | null =>
    p?.projectLabel === "rec"
      ? "rec"
      : p?.namespace === "vision-ns"
        ? "vision"
        : p?.user === "carol"
          ? "nlp"
          : null;
  for (let atMs = FROM_MS; atMs < TO_MS; atMs += STEP_MS) {
    const day = localDayOf(atMs, ZONE);
    if (day.slice(0, 7) !== month) continue;
    for (const obs of fleetAt(atMs)) {
      if (!obs.ok) continue;
      const rate = rates.get(`${day}|${obs.host}`);
      assert.ok(rate);
      for (const g of obs.gpus) {
        const claim = CLAIMS.find(
          (c) =>
            c.host === obs.host &&
            (c.gpuIndex === null || c.gpuIndex === g.index) &&
            c.from <= atMs &&
            atMs < (c.released ?? c.until),
        );
        const busy = (g.utilPct ?? 0) >= 10;
        if (busy) {
          const target = row(claim !== undefined ? claim.project : workloadProject(g.processes[0]));
          target.busy += 10 / 60;
          target.used += 10 * rate.busy;
        } else if (claim !== undefined && claim.project !== null) {
          row(claim.project).idle += 10 * rate.idle;
        }
      }
    }
  }
  return rows;
}

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} ≠ ${expected}`);

describe("the allocation of the fleet's cost to projects", () => {
  it("matches a recomputation from the samples, rows summing to the ledger, across DST and the month's end", () => {
    const { r, deps } = rig();
    const october = readProjectReport(deps, "2026-10");
    assert.equal(october.fromDay, "2026-10-24");
    assert.equal(october.toDay, "2026-10-31");
    const ledger = r.ledger.between("2026-10-24", "2026-10-31");
    const ledgerTotal = ledger.reduce((sum, d) => sum + (d.cost ?? 0), 0);
    assert.ok(ledgerTotal > 0);
    close(october.ledgerCost, ledgerTotal, "ledger total");
    close(
      october.rows.reduce((sum, row) => sum + row.cost, 0),
      ledgerTotal,
      "rows' sum",
    );
    assert.deepEqual(
      october.rows.map((row) => row.project),
      ["nlp", "vision", "rec", "idle", null],
    );
    const expected = recompute("2026-10", ledger);
    for (const row of october.rows) {
      if (row.project === null) continue;
      const want = expected.get(row.project) ?? { busy: 0, used: 0, idle: 0 };
      close(row.busyGpuHours, want.busy, `${row.project} busy`);
      close(row.usedCost, want.used, `${row.project} used`);
      close(row.idleCost, want.idle, `${row.project} idle`);
    }
    const unattributed = october.rows.at(-1)!;
    close(unattributed.busyGpuHours, expected.get(null)?.busy ?? 0, "unattributed busy");
    assert.ok(unattributed.idleCost > 0, "idle time nobody held stays unattributed");
    // alice: gpu-a:0 from the 24th 10:00 to the 26th 10:00 UTC (48 h); bob: gpu-a whole (2 GPUs) from
    // the 31st 20:00 to 23:00 UTC in October (3 h), then 4 more hours in November (released at 03:00).
    close(october.rows[0]!.claimedGpuHours, 48, "nlp claimed");
    close(october.rows[1]!.claimedGpuHours, 6, "vision claimed");
    close(unattributed.claimedGpuHours, 6, "a claim without a project");
    close(october.rows[0]!.waitedHours, 5, "nlp waited in October (18:00 → 23:00 UTC)");
    assert.equal(october.rows[3]!.cost, 0);

    const november = readProjectReport(deps, "2026-11");
    assert.equal(november.toDay, "2026-11-01");
    close(november.rows[1]!.claimedGpuHours, 8, "vision claimed in November");
    close(november.rows[0]!.waitedHours, 3, "nlp waited in November");
    const novemberLedger = r.ledger.between("2026-11-01", "2026-11-01");
    close(
      november.rows.reduce((sum, row) => sum + row.cost, 0),
      novemberLedger.reduce((sum, d) => sum + (d.cost ?? 0), 0),
      "November rows' sum",
    );
    const expectedNov = recompute("2026-11", novemberLedger);
    close(november.rows[1]!.usedCost, expectedNov.get("vision")?.used ?? 0, "vision used in November");
    close(november.rows[1]!.idleCost, expectedNov.get("vision")?.idle ?? 0, "vision idle in November");
    r.close();
  });

  it("prints the table and the CSV, the unattributed row last and the ledger's total", () => {
    const { r, deps } = rig();
    const report = readProjectReport(deps, "2026-10");
    const en = translator({ language: "en", timeZone: ZONE, currency: "EUR" });
    const table = projectTable(en, report);
    assert.match(table, /^cost by project, 2026-10 \(2026-10-24 … 2026-10-31, Europe\/Berlin\), EUR/);
    assert.match(table, /\nunattributed +[\d.]+/);
    assert.match(table, new RegExp(`total \\(ledger\\) .* ${report.ledgerCost.toFixed(2)} +100 %`));
    const csv = projectCsv(en, report).split("\r\n");
    assert.equal(
      csv[0],
      "project,claimed_gpu_hours,busy_gpu_hours,used_cost,idle_cost,cost,share,waited_hours,currency",
    );
    assert.equal(csv.length, 1 + 5 + 1);
    assert.match(csv[5]!, /^unattributed,/);
    const zh = projectTable(translator({ language: "zh-CN", timeZone: ZONE, currency: "EUR" }), report);
    assert.match(zh, /按项目分摊成本/);
    assert.match(zh, /\n未归属 /);
    r.close();
  });

  it("the biweekly summary's section: the period's complete days per project, the ledger's rows", () => {
    const { r, deps } = rig();
    const period = readProjectAllocation(deps, "2026-10-25", "2026-11-07");
    assert.equal(period.fromDay, "2026-10-25");
    assert.equal(period.toDay, "2026-11-01");
    const ledger = r.ledger.between("2026-10-25", "2026-11-01").reduce((sum, d) => sum + (d.cost ?? 0), 0);
    close(
      period.rows.reduce((sum, row) => sum + row.cost, 0),
      ledger,
      "the period's rows",
    );
    const en = translator({ language: "en", timeZone: ZONE, currency: "EUR" });
    const text = shownText(projectSummaryBlocks(en, period));
    assert.match(
      text,
      /^:moneybag: Cost by project, 2026-10-25 to 2026-11-01 \(complete days\):\n• nlp: €[\d,.]+ \(\d+ %\), idle GPUs held €[\d,.]+; [\d.]+ busy GPU-hours; waited 8\.0 h in the queue\n/,
    );
    assert.match(text, /\n• unattributed: €/);
    const zh = shownText(
      projectSummaryBlocks(translator({ language: "zh-CN", timeZone: ZONE, currency: "EUR" }), period),
    );
    assert.match(zh, /按项目分摊成本，2026-10-25 至 2026-11-01（完整日）：\n• nlp：/);
    r.close();
  });
});
