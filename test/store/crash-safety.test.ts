import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { tsChildArgs } from "../helpers/ts-child.ts";
import { count, tempDir } from "./store-fixtures.ts";

const here = dirname(fileURLToPath(import.meta.url));
let childArgs: string[];
before(async () => {
  childArgs = await tsChildArgs(join(here, "ingest-loop.ts"));
});
const repoRoot = join(here, "..", "..");
const temp = tempDir("gw-store-crash-");
const children: ChildProcess[] = [];
after(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  temp.remove();
});

/** Starts the ingest loop and SIGKILLs it once it has committed `cycles` more cycles; resolves to the last id it printed. */
function ingestThenKill(file: string, cycles: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childArgs, file], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let lastAcked = 0;
    let seen = 0;
    let buffered = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        lastAcked = Number(line);
        seen++;
      }
      if (seen >= cycles && child.signalCode === null) child.kill("SIGKILL");
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(lastAcked);
      else reject(new Error(`ingest loop exited with ${code}: ${stderr}`));
    });
  });
}

function checkCycles(file: string, lastAcked: number): number {
  const db = openDatabase(file);
  try {
    assert.equal(db.pragma("integrity_check", { simple: true }), "ok");
    const cycles = db.prepare("SELECT id, hosts, gpus FROM cycle ORDER BY id").all() as {
      id: number;
      hosts: number;
      gpus: number;
    }[];
    const maxId = cycles.at(-1)?.id ?? 0;
    assert.ok(
      maxId >= lastAcked,
      `cycle ${lastAcked} was committed and acknowledged but is gone (last is ${maxId})`,
    );
    assert.deepEqual(
      cycles.map((cycle) => cycle.id),
      Array.from({ length: maxId }, (_, i) => i + 1),
      "cycles are contiguous",
    );
    const span = 2 ** 24;
    for (const cycle of cycles) {
      const range = [cycle.id * span, cycle.id * span + span - 1];
      assert.equal(
        count(db, "SELECT count(*) FROM host_sample WHERE id BETWEEN ? AND ?", ...range),
        cycle.hosts,
      );
      assert.equal(
        count(db, "SELECT count(*) FROM gpu_sample WHERE id BETWEEN ? AND ?", ...range),
        cycle.gpus,
      );
      assert.equal(cycle.hosts, 200, `cycle ${cycle.id}`);
    }
    const totals = cycles.reduce((sum, cycle) => sum + cycle.gpus, 0);
    assert.equal(count(db, "SELECT count(*) FROM gpu_sample"), totals, "no rows of an uncommitted cycle");
    assert.equal(count(db, "SELECT count(*) FROM host_sample"), cycles.length * 200);
    const store = createMetricsStore(db);
    assert.equal(store.latestObservations().length, 200);
    return maxId;
  } finally {
    db.close();
  }
}

describe("metrics store: crash safety", () => {
  it("loses at most the cycle in flight when the writer is killed, and opens cleanly after", async () => {
    const file = temp.file("crash.db");
    let previous = 0;
    for (let round = 0; round < 3; round++) {
      const lastAcked = await ingestThenKill(file, 25);
      assert.ok(lastAcked > previous, "the writer carries on after a crash");
      previous = checkCycles(file, lastAcked);
    }
  });
});
