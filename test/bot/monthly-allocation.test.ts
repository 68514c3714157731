import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { createSlotRunner, type PersistedJob } from "../../src/jobs/slot-runner.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createJobRunStore } from "../../src/store/job-run-store.ts";
import { ALICE, BOB, BotHarness, CAROL, CHANNEL, standardConfig } from "../helpers/bot-harness.ts";
import { shownText as shown } from "../helpers/shown-blocks.ts";
import { gpu } from "../store/store-fixtures.ts";

function host(name: string, atMs: number, utilPcts: number[]): HostObservation {
  return {
    host: name,
    source: "ssh",
    atMs,
    ok: true,
    gpus: utilPcts.map((utilPct, index) => gpu(index, { utilPct, powerW: null })),
    sessions: [],
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  };
}

/** Splits CSV text (no quoted commas in these rows) into rows of cells. */
function csvRows(text: string): string[][] {
  return text
    .split("\r\n")
    .filter((line) => line !== "")
    .map((line) => line.split(","));
}

describe("the monthly allocation on the 1st, with the warden's hand-over", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("the month just ended split among projects, CSV attached, once across restarts; it sums to the ledger", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { cost_per_hour: 4 }, "gpu-b": { cost_per_hour: 2 } },
        {
          warden: { roster: [ALICE, BOB, CAROL] },
          projects: { vision: { members: [ALICE] }, speech: { members: [BOB] } },
        },
      ),
    });
    // 30 and 31 January in Berlin: gpu-a's GPU 0 busy, GPU 1 idle; gpu-b busy in the mornings.
    const fromMs = Date.UTC(2026, 0, 29, 23);
    const toMs = Date.UTC(2026, 0, 31, 23);
    for (let atMs = fromMs; atMs < toMs; atMs += MINUTE_MS) {
      const morning = new Date(atMs).getUTCHours() < 12;
      h.metrics.writeCycle([host("gpu-a", atMs, [80, 0]), host("gpu-b", atMs, [morning ? 70 : 0])], atMs);
    }
    h.state.claims.add({
      host: "gpu-a",
      gpuIndex: 0,
      user: ALICE,
      fromMs: fromMs + 6 * HOUR_MS,
      untilMs: fromMs + 30 * HOUR_MS,
      note: "",
      project: "vision",
    });
    h.state.claims.add({
      host: "gpu-b",
      gpuIndex: null,
      user: BOB,
      fromMs,
      untilMs: fromMs + 10 * HOUR_MS,
      note: "",
      project: "speech",
    });
    const job = h.jobs.find((candidate) => candidate.name === "warden-announce") as PersistedJob;
    const runner = () =>
      createSlotRunner({ jobs: [job], store: createJobRunStore(h.db), clock: h.clock, logger: silentLogger });
    h.clock.set(Date.UTC(2026, 1, 1, 8, 0, 20)); // 09:00 in Berlin, warden.announce_time
    while (!h.metrics.rollup(h.clock.now(), 10, 1000).complete) {}
    await runner().tick();
    await h.settle();
    // Restarted twice on the 1st: the slot is done, nothing is posted again.
    h.clock.set(Date.UTC(2026, 1, 1, 8, 30));
    await runner().tick();
    h.clock.set(Date.UTC(2026, 1, 1, 16));
    await runner().tick();
    await h.settle();
    await h.emulator.waitFor(() => h.emulator.files()[0]?.completed === true, "the CSV upload");

    const files = h.emulator.files();
    assert.deepEqual(
      files.map((file) => [file.filename, file.channels]),
      [["gpu-cost-by-project_2026-01.csv", [CHANNEL]]],
      "one CSV, in the team channel",
    );
    const posts = h.emulator.channel(CHANNEL).messages;
    assert.equal(posts.filter((m) => m.text.startsWith("🧭")).length, 1, "one hand-over");
    const withFiles = posts.filter((m) => m.fileIds.length > 0);
    assert.equal(withFiles.length, 1, "one allocation");
    assert.deepEqual(withFiles[0]?.fileIds, [files[0]?.id], "the CSV is attached to it");
    const allocation = shown(withFiles[0]?.blocks as unknown[]);
    assert.match(
      allocation,
      /^📊 2026-01 is over: its cost split among projects, with the new cost warden's hand-over/,
    );
    assert.match(
      allocation,
      /Cost by project, 2026-01 \(2026-01-30 to 2026-01-31, Europe\/Berlin; the ledger: €288\)\n• vision: €48\.00 \(17 %\)/,
    );

    const [header, ...rows] = csvRows(files[0]?.bytes?.toString("utf8") ?? "");
    assert.deepEqual(header?.slice(0, 6), [
      "project",
      "claimed_gpu_hours",
      "busy_gpu_hours",
      "used_cost",
      "idle_cost",
      "cost",
    ]);
    assert.deepEqual(
      rows.map((row) => row[0]),
      ["vision", "speech", "unattributed"],
    );
    const ledgerTotal = (
      h.db
        .prepare("SELECT sum(cost) AS total FROM ledger_day WHERE day BETWEEN '2026-01-01' AND '2026-01-31'")
        .get() as { total: number }
    ).total;
    // 48 h × (€4 + €2) an hour for the two hosts.
    assert.equal(ledgerTotal, 288);
    const csvTotal = rows.reduce((sum, row) => sum + Number(row[5]), 0);
    assert.ok(
      Math.abs(csvTotal - ledgerTotal) < 0.005 * rows.length,
      `${csvTotal} sums to the ledger's ${ledgerTotal}`,
    );
    assert.ok(
      rows.every((row) => Number(row[5]) > 0),
      "each project and the unattributed rest has a part",
    );
  });
});
