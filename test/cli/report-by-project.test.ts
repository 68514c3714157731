import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";
import { gpu } from "../store/store-fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-by-project-"));
after(() => rmSync(dir, { recursive: true, force: true }));
/** The instant the reports run at (`GPU_WARDEN_NOW`): yesterday is complete at any hour of the real clock. */
const NOW = "2026-03-05T12:00:00Z";
const gpuWarden = (args: string[]) =>
  runCliHere(args, { cwd: dir, env: { LOG_LEVEL: "silent", PATH: "/usr/bin:/bin", GPU_WARDEN_NOW: NOW } });

describe("gpu-warden report --by project", () => {
  const DAY_MS = 86_400_000;
  const today = Math.floor(Date.parse(NOW) / DAY_MS) * DAY_MS;
  const month = new Date(today - DAY_MS).toISOString().slice(0, 7);
  const store = join(dir, "ledger.db");
  const file = join(dir, "gpu-warden.yaml");
  writeFileSync(
    file,
    `store: { path: ${store} }\npoll: { interval_seconds: 600 }\n` +
      "hosts: { gpu-a: { cost_per_hour: 2 } }\n" +
      "projects: { nlp: { members: [U0ALICE] } }\n",
  );
  // Yesterday (UTC): gpu-a's GPU 0 busy under alice's claim for project nlp, GPU 1 idle, unclaimed.
  const db = openDatabase(store);
  const metrics = createMetricsStore(db, { sampleSpanMaxMs: 1_200_000 });
  for (let atMs = today - DAY_MS; atMs < today + 600_000; atMs += 600_000) {
    const obs = {
      host: "gpu-a",
      source: "ssh" as const,
      atMs,
      ok: true as const,
      gpus: [gpu(0, { utilPct: 80 }), gpu(1, { utilPct: 0 })],
      sessions: [],
      cpuLoad1: 0,
      cpuUtilPct: 0,
      containers: [],
    };
    metrics.writeCycle([obs], atMs);
  }
  const state = createBotStateStore(db);
  const claim = state.claims.add({
    host: "gpu-a",
    gpuIndex: 0,
    user: "U0ALICE",
    fromMs: today - DAY_MS,
    untilMs: today,
    note: "",
    project: "nlp",
  });
  state.claims.release([claim.id], today, "U0ALICE", "released");
  db.close();

  it("prints the month per project with the unattributed row, and as CSV", async () => {
    const table = await gpuWarden(["report", "--by", "project", "--month", month, "--config", file]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.split("\n");
    assert.match(lines[0]!, new RegExp(`^cost by project, ${month} \\(.* UTC\\), EUR$`));
    assert.match(lines[2]!, /^nlp +24\.0 +24\.0 +24\.00 +0\.00 +24\.00 +50 % +0\.0$/);
    assert.match(lines[3]!, /^unattributed +0\.0 +0\.0 +0\.00 +24\.00 +24\.00 +50 % +0\.0$/);
    assert.match(lines[4]!, /^total \(ledger\) +24\.0 +24\.0 +24\.00 +24\.00 +48\.00 +100 % +0\.0$/);
    const csv = await gpuWarden(["report", "--by", "project", "--month", month, "--csv", "--config", file]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.deepEqual(csv.stdout.split("\r\n").slice(1, 3), [
      "nlp,24.000,24.000,24.00,0.00,24.00,0.5000,0.000,EUR",
      "unattributed,0.000,0.000,0.00,24.00,24.00,0.5000,0.000,EUR",
    ]);
  });

  it("refuses a bad --by or --month, and --by with --since", async () => {
    const by = await gpuWarden(["report", "--by", "host", "--config", file]);
    assert.equal(by.code, 2);
    assert.match(by.stderr, /^--by takes 'project' \(the report per project\), not 'host'\n/);
    const bad = await gpuWarden(["report", "--by", "project", "--month", "2026-13", "--config", file]);
    assert.match(bad.stderr, /^--month takes a month as YYYY-MM, such as 2026-11, not '2026-13'\n/);
    const both = await gpuWarden(["report", "--by", "project", "--since", "2026-01-01", "--config", file]);
    assert.match(both.stderr, /^--by project or --since\/--until, not both\n/);
    const elsewhere = await gpuWarden(["collect", "--once", "--month", "2026-01"]);
    assert.match(elsewhere.stderr, /^--by and --month go with 'report', not 'collect'\n/);
  });
});
