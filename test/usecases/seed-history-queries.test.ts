import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Config, configSchema } from "../../src/config/schema.ts";
import { botStoresOf } from "../../src/main/bot-stores.ts";
import { DAY_MS, HOUR_MS, ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createPrometheusSource, type PrometheusSourceConfig } from "../../src/sources/prometheus-source.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { idlePolicyOf, restoreWindowMinutes } from "../../src/usecases/alerts/alert-policy.ts";
import { type SeededHistory, seedHistory } from "../../src/usecases/fleet/seed-history.ts";
import { METRICS_BACKENDS, startMetricsBackend } from "../helpers/metrics-backend.ts";
import type { HistorySeries, RunningPrometheus } from "../helpers/prometheus.ts";

/**
 * An engine without GR_ENGINE_ACTIVE (no MIG, exporters with GPU_UTIL): the look-back leaves out the
 * `or` with it, and what it reads is the same as with it, in the store and in the older history.
 */

const NOW = Math.floor((Date.now() - 5 * MINUTE_MS) / (5 * MINUTE_MS)) * (5 * MINUTE_MS);
const HISTORY_FROM = NOW - 3 * DAY_MS;
const IDLE_FROM = NOW - DAY_MS - 10 * MINUTE_MS;
const GAP = [NOW - 26 * HOUR_MS, NOW - 25 * HOUR_MS] as const;
const HALF_GONE = [NOW - 30 * HOUR_MS, NOW - 30 * HOUR_MS + 40 * MINUTE_MS] as const;

const hosts: { host: string; gpus: number; util: (atMs: number, gpu: number) => number | null }[] = [
  { host: "idle-1d", gpus: 2, util: (t, gpu) => (t >= IDLE_FROM ? 2 : 40 + gpu * 45) },
  { host: "busy-b", gpus: 3, util: (t, gpu) => 40 + ((t / MINUTE_MS + gpu * 7) % 50) },
  { host: "gappy-c", gpus: 2, util: (t) => (t >= GAP[0] && t < GAP[1] ? null : 1) },
  { host: "sparse-s", gpus: 1, util: (t) => ((NOW - 2 * MINUTE_MS - t) % (8 * MINUTE_MS) === 0 ? 0 : null) },
  {
    host: "half-gone",
    gpus: 2,
    util: (t, gpu) => (gpu === 1 && t >= HALF_GONE[0] && t < HALF_GONE[1] ? null : 3.5),
  },
];

function* history(): Generator<HistorySeries> {
  for (const { host, gpus, util } of hosts) {
    for (let gpu = 0; gpu < gpus; gpu++) {
      const points: [number, number][] = [];
      for (let t = HISTORY_FROM; t <= NOW - 2 * MINUTE_MS; t += MINUTE_MS) {
        const value = util(t, gpu);
        if (value !== null) points.push([t, value]);
      }
      const labels = { Hostname: host, gpu: String(gpu), UUID: `GPU-${host}-${gpu}` };
      yield { name: "DCGM_FI_DEV_GPU_UTIL", labels, points };
    }
  }
}

/** A look-back into a fresh store; `withoutLabels`: the engine's label API fails (the `or` is kept). */
async function lookBack(url: string, withoutLabels: boolean) {
  const config: Config = configSchema.parse({
    sources: [{ kind: "prometheus", url, history_days: 2 }],
    policy: { idle_for_minutes: 30 },
  });
  const queries: string[] = [];
  const fetchThrough: typeof fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    const body = new URLSearchParams(String(init?.body ?? ""));
    if (path.endsWith("/labels") && withoutLabels) return new Response("gone", { status: 404 });
    queries.push(`${path} ${body.get("query") ?? body.get("match[]")}`);
    return fetch(input, init);
  };
  const clock = new ManualClock(NOW);
  const source = createPrometheusSource(config.sources[0] as PrometheusSourceConfig, {
    clock,
    logger: silentLogger,
    fetch: fetchThrough,
  });
  const dir = mkdtempSync(join(tmpdir(), "gw-seed-queries-"));
  const db = openDatabase(join(dir, "gpu-warden.db"));
  try {
    const { store } = botStoresOf(db, config, clock);
    const seeded = await seedHistory(
      { sources: [source], store, clock, logger: silentLogger },
      { pollStepMs: MINUTE_MS, windowMs: restoreWindowMinutes(idlePolicyOf(config)) * MINUTE_MS },
      AbortSignal.timeout(60_000),
    );
    const rows = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all();
    const stored = {
      host: rows("host"),
      gpu: rows("gpu"),
      cycle: rows("cycle"),
      host_sample: rows("host_sample"),
      gpu_sample: rows("gpu_sample"),
    };
    return { seeded, stored, queries };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The older history as plain numbers (NaN as `null`), host by host. */
function priorOf(seeded: SeededHistory | null) {
  assert.ok(seeded);
  const hostsSeen = [...seeded.prior.byHost.keys()].sort();
  return {
    untilMs: seeded.prior.untilMs,
    stepMs: seeded.prior.stepMs,
    byHost: hostsSeen.map((host) => {
      const history = seeded.prior.byHost.get(host)!;
      return [host, history.fromMs, [...history.utilPct].map((v) => (Number.isNaN(v) ? null : v))];
    }),
  };
}

for (const backend of METRICS_BACKENDS)
  describe(`look-back against a ${backend} without GR_ENGINE_ACTIVE`, () => {
    let prom: RunningPrometheus;
    let lean: Awaited<ReturnType<typeof lookBack>>;
    let full: Awaited<ReturnType<typeof lookBack>>;

    before(async () => {
      prom = await startMetricsBackend(backend, { backfill: history() });
      lean = await lookBack(prom.url, false);
      full = await lookBack(prom.url, true);
    });

    after(async () => {
      await prom?.stop();
    });

    test("asks for GPU_UTIL alone, where the engine cannot say it keeps the `or` with GR_ENGINE_ACTIVE", () => {
      const ranges = (queries: string[]) => queries.filter((query) => query.includes("query_range"));
      assert.ok(ranges(lean.queries).length >= 4, lean.queries.join("\n"));
      for (const query of ranges(lean.queries)) assert.doesNotMatch(query, /GR_ENGINE_ACTIVE/);
      assert.ok(lean.queries.some((query) => query.endsWith("/labels DCGM_FI_PROF_GR_ENGINE_ACTIVE")));
      assert.ok(ranges(full.queries).length >= 4);
      for (const query of ranges(full.queries)) assert.match(query, / or 100 \* /);
    });

    test("the store after the look-back is the same, row for row", () => {
      assert.ok(lean.stored.gpu_sample.length > 0);
      assert.equal(lean.stored.cycle.length, lean.seeded?.cycles);
      assert.deepEqual(lean.stored, full.stored);
    });

    test("the older history is the same, step for step, gaps and silent GPUs included", () => {
      const prior = priorOf(lean.seeded);
      assert.deepEqual(prior, priorOf(full.seeded));
      const steps = (host: string) => prior.byHost.find(([name]) => name === host)![2] as (number | null)[];
      assert.ok(steps("gappy-c").includes(null), "a gap");
      assert.ok(
        steps("half-gone").some((v) => v !== null && v < 0),
        "a silent GPU",
      );
      assert.ok(steps("busy-b").every((v) => v !== null && v >= 40));
    });
  });
