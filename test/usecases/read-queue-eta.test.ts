import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { estimateWords } from "../../src/bot/views/queue/eta-words.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import type { QueueRequest } from "../../src/domain/queue-request.ts";
import { translator } from "../../src/messages/translator.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import { estimateQueue, modelLines, usualFreeOf } from "../../src/usecases/queue/read-queue-eta.ts";
import { failedHost, gpu, okHost, openStore, tempDir } from "../store/store-fixtures.ts";

const START = Date.UTC(2026, 9, 26); // Monday 26 Oct 2026, 00:00 UTC
const NOW = Date.UTC(2026, 11, 1, 10, 5); // Tuesday 1 Dec 2026, 10:05 UTC: five weeks later
const STEP = 30 * MINUTE_MS;
const temp = tempDir("gw-eta-");
after(() => temp.remove());

/**
 * gpu-a (2 A100s): busy on weekdays 09:00–17:00 UTC, idle otherwise. gpu-b (1 H100): idle, but its
 * polls fail all Tuesday, every week. One poll every 30 minutes, rolled up into a real SQLite store.
 */
function writeWeeks(file: string, fromMs: number, toMs: number): MetricsStore {
  const { store } = openStore(file, { sampleSpanMaxMs: STEP });
  for (let at = fromMs; at < toMs; at += STEP) {
    const d = new Date(at);
    const weekday = (d.getUTCDay() + 6) % 7;
    const busy = weekday < 5 && d.getUTCHours() >= 9 && d.getUTCHours() < 17;
    const util = busy ? 90 : 0;
    const observations: HostObservation[] = [
      okHost("gpu-a", at, { gpus: [gpu(0, { utilPct: util }), gpu(1, { utilPct: util })] }),
      weekday === 1
        ? failedHost("gpu-b", at)
        : okHost("gpu-b", at, { gpus: [gpu(0, { model: "NVIDIA H100 80GB HBM3" })] }),
    ];
    store.writeCycle(observations, at);
  }
  while (!store.rollup(toMs, 10, 10_000).complete) {}
  return store;
}

const deps = (metrics: MetricsStore) => ({ metrics, config: { team: { timezone: "UTC" } } }) as never;
const tr = translator({ language: "en", timeZone: "UTC", currency: "EUR" });

let request = 0;
function waiting(want: QueueRequest["want"], durationMs = 4 * HOUR_MS): QueueRequest {
  return {
    id: ++request,
    user: `U${request}`,
    want,
    durationMs,
    note: "",
    createdAtMs: NOW - HOUR_MS,
    project: null,
    priority: 0,
    state: "waiting",
    grantedAtMs: null,
    confirmByMs: null,
    endedAtMs: null,
  };
}

describe("estimated times from the hour-of-week profile (five weeks of rollups in SQLite)", () => {
  let metrics: MetricsStore;
  before(() => {
    metrics = writeWeeks(temp.file("five-weeks.db"), START, NOW);
  });

  it("a request for both A100s is estimated at 17:00 on the same Tuesday, the one behind it 4 h later", () => {
    const line = [
      waiting({ kind: "count", count: 2, model: "a100" }),
      waiting({ kind: "slots", host: "gpu-a", gpus: [1] }),
    ];
    const [first, second] = estimateQueue(deps(metrics), line, NOW);
    assert.deepEqual(first?.estimate, { kind: "at", atMs: Date.UTC(2026, 11, 1, 17) });
    assert.equal(first?.position, 1);
    assert.equal(estimateWords(tr, first!.estimate), "around Tue 17:00");
    assert.deepEqual(second?.estimate, { kind: "at", atMs: Date.UTC(2026, 11, 1, 21) });
    assert.equal(second?.position, 2);
    const claimed = [{ host: "gpu-a", gpuIndex: 0, untilMs: Date.UTC(2026, 11, 2, 12) }];
    const [afterClaim] = estimateQueue(deps(metrics), line.slice(0, 1), NOW, claimed);
    assert.equal(
      estimateWords(tr, afterClaim!.estimate),
      "around Wed 17:00",
      "claimed until Wednesday noon, then busy as usual until 17:00",
    );
  });

  it("hours without readings never count as free: gpu-b, down every Tuesday, is free again on Wednesday", () => {
    const usual = usualFreeOf(deps(metrics), ["gpu-a", "gpu-b"], NOW);
    assert.equal(estimateWords(tr, usual.get("gpu-a")!), "around Tue 17:00");
    assert.equal(estimateWords(tr, usual.get("gpu-b")!), "around Wed 00:00");
    const [h100] = estimateQueue(deps(metrics), [waiting({ kind: "count", count: 1, model: "h100" })], NOW);
    assert.equal(estimateWords(tr, h100!.estimate), "around Wed 00:00");
  });

  it("each GPU model's line, and no estimate when the profile never shows enough GPUs", () => {
    const lines = modelLines(deps(metrics), NOW).map((line) => [
      line.model,
      line.gpus,
      estimateWords(tr, line.estimate),
    ]);
    assert.deepEqual(lines, [
      ["NVIDIA A100-SXM4-80GB", 2, "around Tue 17:00"],
      ["NVIDIA H100 80GB HBM3", 1, "around Wed 00:00"],
    ]);
    const [tooMany] = estimateQueue(deps(metrics), [waiting({ kind: "count", count: 4, model: null })], NOW);
    assert.equal(
      estimateWords(tr, tooMany!.estimate),
      "no estimate: the last weeks' usage never shows it free within 14 days",
    );
  });
});

describe("too little history", () => {
  it("two weeks of rollups give no estimate, and say so", () => {
    const metrics = writeWeeks(temp.file("two-weeks.db"), NOW - 14 * 24 * HOUR_MS, NOW);
    const [only] = estimateQueue(deps(metrics), [waiting({ kind: "count", count: 1, model: null })], NOW);
    assert.equal(only?.estimate.kind, "too-little-history");
    assert.match(estimateWords(tr, only!.estimate), /^no estimate yet: 14 of the 28 days of usage history/);
    const zh = translator({ language: "zh-CN", timeZone: "UTC", currency: "EUR" });
    assert.match(estimateWords(zh, only!.estimate), /暂无预计/);
  });
});
