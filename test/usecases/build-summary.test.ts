import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { HOURS_PER_MONTH } from "../../src/checks/cost-model.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { translator } from "../../src/messages/translator.ts";
import { renderSummaryChart } from "../../src/reports/summary-chart.ts";
import { summaryCsvFiles } from "../../src/reports/summary-csv.ts";
import type { SummaryModel } from "../../src/reports/summary-model.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createPrometheusClient } from "../../src/sources/prometheus-api.ts";
import { createAuditStore } from "../../src/store/audit-store.ts";
import { createClaimStore } from "../../src/store/claim-store.ts";
import { createMetaStore } from "../../src/store/meta-store.ts";
import { createReclaimStore } from "../../src/store/reclaim-store.ts";
import { ROLLED_UP_TO_KEY } from "../../src/store/rollup.ts";
import { createSummaryStore } from "../../src/store/summary-store.ts";
import { buildSummary, type SummaryDeps, summaryPeriod } from "../../src/usecases/ledger/build-summary.ts";
import { decodePng } from "../helpers/png.ts";
import { type HistorySeries, type RunningPrometheus, startPrometheus } from "../helpers/prometheus.ts";
import { workHoursIn } from "../helpers/work-hours.ts";
import { down, host, LedgerRig } from "./ledger-rig.ts";

const EN = translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" });

const H = 3_600_000;
const DAY = 24 * H;
const STEP = 10 * 60_000;
const ZONE = "Europe/Berlin";
const BOB = "U0BOB";
const ALICE = "U0ALICE";
const CAROL = "U0CAROL";
const EVE = "U0EVE";

/** The slot: a whole UTC hour at least an hour ago (Prometheus takes history up to a minute ago). */
const T = Math.floor((Date.now() - 2 * H) / H) * H;
const PERIOD = summaryPeriod(T, ZONE);
const PREVIOUS = summaryPeriod(PERIOD.fromMs, ZONE);
const STOP_AT = PERIOD.fromMs + 9 * DAY + 30 * 60_000;
const BACK_AT = PERIOD.fromMs + 12 * DAY;
const PRICE_KWH = 0.3;
const PURCHASE = 100_000;

const CONFIG = {
  team: { timezone: ZONE, currency: "EUR", name: "ml-infra" },
  costs: { electricity: { price_per_kwh: PRICE_KWH }, upkeep_pct: 30, lifetime_months: 36 },
  hosts: {
    "gpu-a": { purchase_price: PURCHASE },
    "gpu-b": { cost_per_hour: 4 },
    "gpu-c": { cost_per_hour: 2, rented: true },
    "gpu-d": {},
  },
};

const workHours = workHoursIn(ZONE);

/** The fleet's history: the truth both the store and the expected figures are computed from. */
function observe(atMs: number): HostObservation[] {
  const work = workHours(atMs);
  const out: HostObservation[] = [host("gpu-a", atMs, [work ? 80 : 0, 2], null)];
  out[0] = withPower(out[0]!, [work ? 250 : 60, 50]);
  if (atMs >= STOP_AT && atMs < BACK_AT) out.push(down("gpu-b", atMs));
  else out.push(host("gpu-b", atMs, atMs >= BACK_AT && atMs < BACK_AT + H ? [50, 50] : [5, 5], 70));
  out.push(host("gpu-c", atMs, [atMs >= PERIOD.fromMs ? 60 : 10], 150));
  if (atMs >= PERIOD.fromMs && atMs < PERIOD.fromMs + 3 * DAY) out.push(down("gpu-d", atMs));
  else out.push(host("gpu-d", atMs, [work ? 50 : 0], null));
  return out;
}

function withPower(obs: HostObservation, powers: number[]): HostObservation {
  if (!obs.ok) return obs;
  return { ...obs, gpus: obs.gpus.map((gpu, i) => ({ ...gpu, powerW: powers[i] ?? null })) };
}

// ---------- independent calculation from the observations ----------

interface GpuTruth {
  utilSum: number;
  known: number;
  busy: number;
  idle: number;
}
interface HourTruth {
  gpus: GpuTruth[];
  energyWh: number | null;
}

/** Per host and clock hour: minutes per GPU (each 10-minute cycle stands for its 10 minutes). */
function truth(fromMs: number, toMs: number): Map<string, Map<number, HourTruth>> {
  const hosts = new Map<string, Map<number, HourTruth>>();
  for (let atMs = fromMs; atMs < toMs; atMs += STEP) {
    for (const obs of observe(atMs)) {
      const hours = hosts.get(obs.host) ?? new Map<number, HourTruth>();
      hosts.set(obs.host, hours);
      const hourMs = Math.floor(atMs / H) * H;
      const gpuCount = obs.host === "gpu-a" || obs.host === "gpu-b" ? 2 : 1;
      const hour = hours.get(hourMs) ?? {
        gpus: Array.from({ length: gpuCount }, () => ({ utilSum: 0, known: 0, busy: 0, idle: 0 })),
        energyWh: null,
      };
      hours.set(hourMs, hour);
      if (!obs.ok) continue;
      obs.gpus.forEach((gpu, i) => {
        const g = hour.gpus[i]!;
        g.utilSum += gpu.utilPct! * 10;
        g.known += 10;
        if (gpu.utilPct! >= 10) g.busy += 10;
        else g.idle += 10;
        if (gpu.powerW !== null) hour.energyWh = (hour.energyWh ?? 0) + (gpu.powerW * 10) / 60;
      });
    }
  }
  return hosts;
}

const capitalPerHour = PURCHASE / (36 * HOURS_PER_MONTH);
const upkeepPerHour = capitalPerHour * 0.3;

/** What the host cost over a span of `hours` hours with `onMinutes` on and `energyWh` drawn. */
function hostCost(name: string, hours: number, onMinutes: number, energyWh: number | null): number | null {
  switch (name) {
    case "gpu-a":
      return (capitalPerHour + upkeepPerHour) * hours + ((energyWh ?? 0) / 1000) * PRICE_KWH;
    case "gpu-b":
      return (4 * onMinutes) / 60;
    case "gpu-c":
      return 2 * hours;
    default:
      return null;
  }
}

function close(actual: number | null | undefined, expected: number | null, what: string): void {
  if (expected === null) {
    assert.equal(actual, null, what);
    return;
  }
  assert.ok(typeof actual === "number", `${what}: ${actual} is not a number (expected ${expected})`);
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} != ${expected}`,
  );
}

// ---------- Prometheus history (kube-state-metrics, cAdvisor, dcgm-exporter) ----------

interface Pod {
  namespace: string;
  pod: string;
  container: string;
  fromMs: number;
  toMs: number;
  cpuRequest: number;
  gpuRequest: number | null;
  /** Cores used, constant over the pod's life. */
  cpuRate: number;
  fbUsedMiB: number | null;
}

const MIN = 60_000;
const windowStart = T - 14 * DAY;
const PODS: Pod[] = [
  {
    namespace: "ml",
    pod: "trainer-7d9f8b6c5d-x2x4z",
    container: "main",
    fromMs: windowStart + 2 * H,
    toMs: windowStart + 7 * DAY,
    cpuRequest: 8,
    gpuRequest: 1,
    cpuRate: 1.5,
    fbUsedMiB: 20_000,
  },
  {
    namespace: "ml",
    pod: "trainer-7d9f8b6c5d-k8s7q",
    container: "main",
    fromMs: windowStart + 7 * DAY + 10 * MIN,
    toMs: T - 3 * H,
    cpuRequest: 8,
    gpuRequest: 1,
    cpuRate: 1,
    fbUsedMiB: 30_000,
  },
  {
    namespace: "web",
    pod: "api-server-0",
    container: "api",
    fromMs: windowStart + 3 * H,
    toMs: T - 2 * H,
    cpuRequest: 2,
    gpuRequest: null,
    cpuRate: 1.8,
    fbUsedMiB: null,
  },
  {
    namespace: "batch",
    pod: "etl-job-h7k2p",
    container: "etl",
    fromMs: windowStart + DAY,
    toMs: windowStart + 3 * DAY,
    cpuRequest: 4,
    gpuRequest: null,
    cpuRate: 0.5,
    fbUsedMiB: null,
  },
];

function minutesOf(pod: Pod): number[] {
  const out: number[] = [];
  for (let atMs = pod.fromMs; atMs <= pod.toMs; atMs += MIN) out.push(atMs);
  return out;
}

function* history(): Generator<HistorySeries> {
  const labels = (pod: Pod) => ({ namespace: pod.namespace, pod: pod.pod, container: pod.container });
  for (const pod of PODS) {
    yield {
      name: "kube_pod_container_resource_requests",
      labels: { ...labels(pod), resource: "cpu", unit: "core", node: "gpu-a" },
      points: minutesOf(pod).map((atMs) => [atMs, pod.cpuRequest] as const),
    };
    if (pod.gpuRequest !== null) {
      yield {
        name: "kube_pod_container_resource_requests",
        labels: { ...labels(pod), resource: "nvidia_com_gpu", unit: "integer", node: "gpu-a" },
        points: minutesOf(pod).map((atMs) => [atMs, pod.gpuRequest!] as const),
      };
    }
  }
  for (const pod of PODS) {
    yield {
      name: "container_cpu_usage_seconds_total",
      labels: { ...labels(pod), id: `/kubepods/${pod.pod}` },
      points: minutesOf(pod).map((atMs) => [atMs, 1e6 + (pod.cpuRate * (atMs - pod.fromMs)) / 1000] as const),
    };
  }
  for (const name of ["DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE"]) {
    for (const pod of PODS) {
      if (pod.fbUsedMiB === null) continue;
      yield {
        name,
        labels: { ...labels(pod), Hostname: "gpu-a", gpu: "0", modelName: "NVIDIA A100-SXM4-80GB" },
        points: minutesOf(pod).map(
          (atMs) =>
            [atMs, name === "DCGM_FI_DEV_FB_USED" ? pod.fbUsedMiB! : 81_920 - pod.fbUsedMiB!] as const,
        ),
      };
    }
  }
}

/**
 * Prometheus 2.x's `rate()` over `[t − 5m, t]` for a counter sampled every minute with slope `r`,
 * extrapolated to the window's edges the way `extrapolatedRate` does; `null` with under 2 samples.
 */
function promRate(pod: Pod, t: number): number | null {
  const startMs = t - 5 * MIN;
  // NOTE: the samples of minutesOf(pod) inside [startMs, t], by arithmetic rather than a filter of them all.
  const firstStep = Math.ceil((Math.max(startMs, pod.fromMs) - pod.fromMs) / MIN);
  const lastStep = Math.floor((Math.min(t, pod.toMs) - pod.fromMs) / MIN);
  const count = lastStep - firstStep + 1;
  if (count < 2) return null;
  const first = pod.fromMs + firstStep * MIN;
  const last = pod.fromMs + lastStep * MIN;
  const sampled = (last - first) / 1000;
  const delta = (pod.cpuRate * (last - first)) / 1000;
  const firstValue = 1e6 + (pod.cpuRate * (first - pod.fromMs)) / 1000;
  let toStart = (first - startMs) / 1000;
  const toEnd = (t - last) / 1000;
  const average = sampled / (count - 1);
  const toZero = sampled * (firstValue / delta);
  if (toZero < toStart) toStart = toZero;
  const threshold = average * 1.1;
  let interval = sampled;
  interval += toStart < threshold ? toStart : average / 2;
  interval += toEnd < threshold ? toEnd : average / 2;
  return (delta * (interval / sampled)) / 300;
}

/** The subquery's steps: multiples of 5 minutes in `[T − 14 d, T]`. */
function subquerySteps(): number[] {
  const steps: number[] = [];
  for (let t = Math.ceil(windowStart / (5 * MIN)) * 5 * MIN; t <= T; t += 5 * MIN) steps.push(t);
  return steps;
}

// ---------- the test ----------

describe("biweekly summary from a real SQLite history and a real Prometheus", () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-summary-"));
  let rig: LedgerRig;
  let prom: RunningPrometheus;
  let model: SummaryModel;

  before(async () => {
    prom = await startPrometheus({ backfill: history(), timeoutMs: 120_000 });
    rig = new LedgerRig(join(dir, "gpu-warden.db"), CONFIG, T + 30 * MIN);
    rig.write(PREVIOUS.fromMs - DAY, T + 20 * MIN, observe);
    const claims = createClaimStore(rig.db);
    claims.add({
      host: "gpu-a",
      gpuIndex: 1,
      user: BOB,
      fromMs: T - 10 * DAY,
      untilMs: T - 8 * DAY,
      note: "",
    });
    const aliceClaim = claims.add({
      host: "gpu-c",
      gpuIndex: null,
      user: ALICE,
      fromMs: T - 3 * DAY + 30 * MIN,
      untilMs: T - 2 * DAY + 30 * MIN,
      note: "eval",
    });
    rig.db
      .prepare("UPDATE claim SET released_ms = ?, released_by = ? WHERE id = ?")
      .run(T - 3 * DAY + 12.5 * H, ALICE, aliceClaim.id);
    claims.add({
      host: "gpu-d",
      gpuIndex: 0,
      user: EVE,
      fromMs: T - 20 * DAY,
      untilMs: T - 19 * DAY,
      note: "",
    });
    const audit = createAuditStore(rig.db);
    audit.record({ atMs: STOP_AT, actor: CAROL, action: "stop", host: "gpu-b", detail: {} });
    audit.record({
      atMs: STOP_AT + H,
      actor: CAROL,
      action: "stop",
      host: "gpu-b",
      detail: {},
      dryRun: true,
    });
    audit.record({ atMs: STOP_AT - H, actor: BOB, action: "stop-failed", host: "gpu-b", detail: {} });
    audit.record({
      atMs: T - 7 * DAY,
      actor: ALICE,
      action: "keep",
      host: "gpu-a",
      detail: { untilMs: T - 7 * DAY + 4 * H },
    });
    audit.record({
      atMs: T - 30 * MIN,
      actor: ALICE,
      action: "keep",
      host: "gpu-a",
      detail: { untilMs: T + 4 * H },
    });
    for (const [atMs, action, gpu] of [
      [T - 20 * DAY, "suspect-reading", 1],
      [T - 13 * DAY, "suspect-ended", 1],
      [T - 3 * DAY, "suspect-reading", 2],
      [T - 3 * DAY + 5 * H, "suspect-ended", 2],
      [T - 2 * H, "suspect-reading", 3],
    ] as const) {
      audit.record({ atMs, actor: "gpu-warden", action, host: "gpu-a", detail: { gpu } });
    }
    const reclaims = createReclaimStore(rig.db);
    reclaims.start({
      host: "gpu-a",
      startedAtMs: T - 2 * DAY,
      windowMeanPct: 12.5,
      observeUntilMs: T + 12 * DAY,
    });
    const meta = createMetaStore(rig.db);
    const deps: SummaryDeps = {
      config: rig.config,
      metrics: rig.metrics,
      rolledUpToMs: () => Number(meta.get(ROLLED_UP_TO_KEY)),
      summaries: createSummaryStore(rig.db),
      claims,
      reclaims,
      prometheus: [
        {
          cluster: null,
          client: createPrometheusClient({ url: prom.url, timeoutMs: 30_000 }),
        },
      ],
      logger: silentLogger,
    };
    model = await buildSummary(deps, PERIOD);
  });

  after(async () => {
    rig?.close();
    await prom?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("suspect readings in the period are flagged per GPU, hours within the period only", () => {
    const firstHours = (T - 13 * DAY - PERIOD.fromMs) / H;
    assert.deepEqual(model.suspect, [
      { host: "gpu-a", gpu: 1, hours: firstHours, ongoing: false },
      { host: "gpu-a", gpu: 2, hours: 5, ongoing: false },
      { host: "gpu-a", gpu: 3, hours: 2, ongoing: true },
    ]);
  });

  test("per GPU and host: mean utilisation, busy, idle and unknown hours, idle cost", () => {
    const hours = truth(PERIOD.fromMs, PERIOD.toMs);
    const spanHours = (PERIOD.toMs - PERIOD.fromMs) / H;
    let fleetIdleCost = 0;
    for (const [name, byHour] of hours) {
      const gpuCount = [...byHour.values()][0]!.gpus.length;
      const gpuTotals = Array.from({ length: gpuCount }, () => ({
        utilSum: 0,
        known: 0,
        busy: 0,
        idle: 0,
        cost: 0,
      }));
      let unpriced = false;
      for (const [, hour] of byHour) {
        const on = Math.max(...hour.gpus.map((g) => g.known));
        const cost = hostCost(name, 1, on, hour.energyWh);
        hour.gpus.forEach((g, i) => {
          const t = gpuTotals[i]!;
          t.utilSum += g.utilSum;
          t.known += g.known;
          t.busy += g.busy;
          t.idle += g.idle;
          if (g.idle > 0 && cost === null) unpriced = true;
          if (cost !== null) t.cost += (cost * g.idle) / (gpuCount * 60);
        });
      }
      gpuTotals.forEach((t, index) => {
        const row = model.gpus.find((g) => g.host === name && g.index === index);
        assert.ok(row, `${name}:${index} in the model`);
        close(row.utilMeanPct, t.known > 0 ? t.utilSum / t.known : null, `${name}:${index} mean`);
        close(row.busyHours, t.busy / 60, `${name}:${index} busy h`);
        close(row.idleHours, t.idle / 60, `${name}:${index} idle h`);
        close(row.unknownHours, spanHours - (t.busy + t.idle) / 60, `${name}:${index} unknown h`);
        close(row.idleCost, unpriced ? null : t.cost, `${name}:${index} idle cost`);
      });
      const row = model.hosts.find((h) => h.host === name)!;
      const known = gpuTotals.reduce((s, t) => s + t.known, 0);
      close(row.utilMeanPct, gpuTotals.reduce((s, t) => s + t.utilSum, 0) / known, `${name} mean`);
      close(row.idleGpuHours, gpuTotals.reduce((s, t) => s + t.idle, 0) / 60, `${name} idle GPU-h`);
      const hostIdleCost = unpriced ? null : gpuTotals.reduce((s, t) => s + t.cost, 0);
      close(row.idleCost, hostIdleCost, `${name} idle cost`);
      if (hostIdleCost !== null) fleetIdleCost += hostIdleCost;
    }
    assert.deepEqual(
      model.hosts.map((h) => h.host),
      ["gpu-a", "gpu-b", "gpu-c", "gpu-d"].sort((a, b) => {
        const row = (n: string) => model.hosts.find((h) => h.host === n)!;
        const cost = (n: string) => Math.max(0, row(n).idleCost ?? 0);
        return cost(b) - cost(a) || row(b).idleGpuHours - row(a).idleGpuHours;
      }),
      "hosts with an idle cost by that cost, then the others (no idle cost, or no price) by idle time",
    );
    close(model.fleet.idleCost, fleetIdleCost, "fleet idle cost");
    assert.equal(model.fleet.unpricedGpus, 1, "gpu-d has idle time and no price");
    assert.equal(model.fleet.gpus, 6);
    assert.equal(model.fleet.hosts, 4);
  });

  test("day columns: mean per local day; no readings is null, never 0", () => {
    const d = model.hosts.find((h) => h.host === "gpu-d")!;
    assert.equal(model.dayStartsMs.length, 14);
    assert.deepEqual(d.dailyUtilPct.slice(0, 3), [null, null, null]);
    const starts = [...model.dayStartsMs, PERIOD.toMs];
    for (let day = 3; day < 14; day++) {
      let sum = 0;
      let known = 0;
      for (let atMs = starts[day]!; atMs < starts[day + 1]!; atMs += STEP) {
        sum += (workHours(atMs) ? 50 : 0) * 10;
        known += 10;
      }
      close(d.dailyUtilPct[day], sum / known, `gpu-d day ${day}`);
    }
  });

  test("the previous period and the trend", () => {
    const hours = truth(PREVIOUS.fromMs, PREVIOUS.toMs);
    const spanHours = (PREVIOUS.toMs - PREVIOUS.fromMs) / H;
    let utilSum = 0;
    let known = 0;
    let idle = 0;
    let idleCost = 0;
    for (const [name, byHour] of hours) {
      const gpuCount = [...byHour.values()][0]!.gpus.length;
      const perGpu = Array.from({ length: gpuCount }, () => ({ known: 0, idle: 0, utilSum: 0 }));
      let energy: number | null = null;
      for (const hour of byHour.values()) {
        hour.gpus.forEach((g, i) => {
          perGpu[i]!.known += g.known;
          perGpu[i]!.idle += g.idle;
          perGpu[i]!.utilSum += g.utilSum;
        });
        if (hour.energyWh !== null) energy = (energy ?? 0) + hour.energyWh;
      }
      const cost = hostCost(name, spanHours, Math.max(...perGpu.map((g) => g.known)), energy);
      for (const g of perGpu) {
        utilSum += g.utilSum;
        known += g.known;
        idle += g.idle;
        if (cost !== null && g.idle > 0) idleCost += (cost * g.idle) / (gpuCount * spanHours * 60);
      }
      const row = model.hosts.find((h) => h.host === name)!;
      close(
        row.previousUtilMeanPct,
        perGpu.reduce((s, g) => s + g.utilSum, 0) / perGpu.reduce((s, g) => s + g.known, 0),
        `${name} previous mean`,
      );
    }
    close(model.previousFleet.utilMeanPct, utilSum / known, "previous fleet mean");
    close(model.previousFleet.idleGpuHours, idle / 60, "previous idle GPU-h");
    close(model.previousFleet.idleCost, idleCost, "previous idle cost");
  });

  test("people: claimed vs busy GPU-hours and the idle cost of their claims; stops and keeps", () => {
    const hours = truth(PERIOD.fromMs, PERIOD.toMs).get("gpu-a")!;
    let bobIdle = 0;
    let bobIdleCost = 0;
    for (let hourMs = T - 10 * DAY; hourMs < T - 8 * DAY; hourMs += H) {
      const hour = hours.get(hourMs)!;
      const cost = hostCost("gpu-a", 1, Math.max(...hour.gpus.map((g) => g.known)), hour.energyWh)!;
      bobIdle += hour.gpus[1]!.idle;
      bobIdleCost += (cost * hour.gpus[1]!.idle) / (2 * 60);
    }
    const bob = model.people.find((p) => p.user === BOB)!;
    assert.equal(bob.claims, 1);
    close(bob.claimedGpuHours, 48, "bob claimed");
    close(bob.busyGpuHours, 0, "bob busy");
    close(bob.idleGpuHours, bobIdle / 60, "bob idle");
    close(bob.idleCost, bobIdleCost, "bob idle cost");

    const alice = model.people.find((p) => p.user === ALICE)!;
    assert.equal(alice.claims, 1);
    close(alice.claimedGpuHours, 12, "alice claimed (released after 12 h)");
    close(alice.busyGpuHours, 12, "alice busy: gpu-c at 60 %");
    close(alice.idleCost, 0, "alice idle cost");
    assert.equal(alice.keeps, 2);

    const carol = model.people.find((p) => p.user === CAROL)!;
    assert.equal(carol.stops, 1, "the dry run and the failed stop do not count");
    close(carol.savedCost, (4 * (BACK_AT - STOP_AT)) / H, "carol saved: gpu-b's cloud price while off");
    assert.equal(
      model.people.find((p) => p.user === EVE),
      undefined,
      "a claim before the period is not in it",
    );
  });

  test("stops with the money they saved, snoozes", () => {
    assert.equal(model.stops.length, 1);
    const [stop] = model.stops;
    assert.equal(stop!.host, "gpu-b");
    assert.equal(stop!.nextUseMs, BACK_AT, "next used in the hour gpu-b came back busy");
    close(stop!.offHours, (BACK_AT - STOP_AT) / H, "off hours");
    close(stop!.savedCost, (4 * (BACK_AT - STOP_AT)) / H, "saved");
    close(model.savedCost, (4 * (BACK_AT - STOP_AT)) / H, "total saved");
    assert.deepEqual(
      model.keeps.map((k) => [k.host, k.actor, k.keptHours]),
      [
        ["gpu-a", ALICE, 4],
        ["gpu-a", ALICE, 0.5],
      ],
      "the second keep counts up to the period end",
    );
  });

  test("reclaim candidates and do-not-renew", () => {
    assert.deepEqual(
      model.reclaim.map((r) => [r.host, r.state, r.sinceMs, r.untilMs, r.windowMeanPct]),
      [["gpu-a", "pending", T - 2 * DAY, T + 12 * DAY, 12.5]],
    );
    const b = model.hosts.find((h) => h.host === "gpu-b")!;
    assert.deepEqual(model.doNotRenew, [
      { host: "gpu-b", currentUtilPct: b.utilMeanPct!, previousUtilPct: b.previousUtilMeanPct! },
    ]);
    assert.ok(b.utilMeanPct! < 20 && b.previousUtilMeanPct! < 20);
  });

  test("containers: requests vs usage from Prometheus, with rightsizing advice", () => {
    assert.equal(model.containers.status, "ok");
    if (model.containers.status !== "ok") return;
    const byGroup = new Map(model.containers.advice.map((a) => [a.usage.group, a]));
    assert.deepEqual([...byGroup.keys()].sort(), [
      "batch/etl-job/etl",
      "ml/trainer/main",
      "web/api-server/api",
    ]);
    for (const [group, pods] of [
      ["ml/trainer/main", PODS.slice(0, 2)],
      ["web/api-server/api", [PODS[2]!]],
      ["batch/etl-job/etl", [PODS[3]!]],
    ] as const) {
      const advice = byGroup.get(group)!;
      let sum = 0;
      let count = 0;
      let peak = 0;
      for (const pod of pods) {
        for (const t of subquerySteps()) {
          const rate = promRate(pod, t);
          if (rate === null) continue;
          sum += rate;
          count++;
          peak = Math.max(peak, rate);
        }
      }
      const request = Math.max(...pods.map((p) => p.cpuRequest));
      assert.equal(advice.usage.pods, pods.length, `${group} pods`);
      close(advice.usage.cpuRequestCores, request, `${group} request`);
      close(advice.usage.cpuPeakCores, peak, `${group} peak`);
      close(peak, Math.max(...pods.map((p) => p.cpuRate)), `${group} peak is the pods' top rate`);
      close(advice.usage.cpuMeanCores, sum / count, `${group} mean`);
      close(advice.cpu!.recommendedCores, 1.2 * peak, `${group} recommended request`);
      assert.equal(advice.cpu!.direction, peak / request < 0.5 ? "lower" : "ok", `${group} direction`);
    }
    const trainer = byGroup.get("ml/trainer/main")!;
    assert.equal(trainer.usage.gpuRequest, 1);
    assert.equal(trainer.usage.gpuMemMaxMiB, 30_000);
    assert.equal(trainer.usage.gpuMemTotalMiB, 81_920);
    close(trainer.gpuMem!.recommendedMiB, 39_000, "1.3 × 30,000 MiB");
    assert.equal(trainer.gpuMem!.direction, "lower");
    assert.deepEqual(
      model.containers.advice.map((a) => [a.usage.group, a.flagged]),
      [
        ["batch/etl-job/etl", true],
        ["ml/trainer/main", true],
        ["web/api-server/api", false],
      ],
    );
  });

  test("the chart is a valid PNG of sensible size; the CSVs hold every row", () => {
    const chart = renderSummaryChart(model, { language: "en" });
    const png = decodePng(chart.png);
    assert.equal(png.width, chart.width);
    assert.equal(png.height, chart.height);
    assert.deepEqual(png.chunkTypes, ["IHDR", "IDAT", "IEND"]);
    assert.ok(chart.png.length < 1_000_000, `${chart.png.length} bytes`);
    const idleHosts = model.hosts.filter((h) => h.dailyIdleCost.some((cost) => cost > 0));
    assert.ok(idleHosts.length >= 2, "hosts with idle cost");
    assert.equal(chart.hostsShown, idleHosts.length, "each host with idle cost has its colour");
    for (const host of idleHosts)
      assert.ok(chart.svg.includes(`>${host.host}<`), `${host.host} in the legend`);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    for (const host of model.hosts) {
      close(sum(host.dailyIdleGpuHours), host.idleGpuHours, `${host.host}: idle GPU-hours by day add up`);
      if (host.idleCost !== null)
        close(sum(host.dailyIdleCost), host.idleCost, `${host.host}: idle cost by day`);
    }
    const files = summaryCsvFiles(EN, model, "gpu-summary");
    assert.deepEqual(
      files.map((f) => [f.filename, f.content.trimEnd().split("\r\n").length]),
      [
        ["gpu-summary-hosts.csv", 1 + 4 + 6],
        ["gpu-summary-people.csv", 1 + 3],
        ["gpu-summary-actions.csv", 1 + 1 + 2],
        ["gpu-summary-containers.csv", 1 + 3],
      ],
    );
    const hostLine = files[0]!.content.split("\r\n").find((line) => line.startsWith("host,gpu-d,"))!;
    assert.match(hostLine, /^host,gpu-d,,,[\d.]+,[\d.]+,[\d.]+,[\d.]+,[\d.]+,,,no,,,,[\d.]+/);
  });
});
