// Writes test/fixtures/stores/v<N>.db: a small store written by this release of gpu-warden (N is
// its schema version), for the test that every later version opens and migrates it. A released
// fixture never changes: the script refuses to overwrite one unless given --force.
//
//   node --import tsx scripts/make-store-fixture.ts [--force]
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import BetterSqlite3 from "better-sqlite3";
import { parseConfig, readEnv } from "../src/config/load-config.ts";
import { reportOnce } from "../src/main/run-once.ts";
import { startBot } from "../src/main.ts";
import { ManualClock, MINUTE_MS } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { migrations } from "../src/store/migrations.ts";

/** When the fixture's fleet was polled: fixed, so the content is the same on every run. */
export const FIXTURE_START_MS = Date.UTC(2026, 10, 2, 9, 0);
export const FIXTURE_POLLS = 90;

const folder = resolve(import.meta.dirname, "../test/fixtures/stores");
const target = join(folder, `v${migrations.length}.db`);
if (existsSync(target) && !process.argv.includes("--force")) {
  process.stderr.write(`${target} exists: released fixtures never change (--force to write it again)\n`);
  process.exit(1);
}
mkdirSync(folder, { recursive: true });
for (const suffix of ["", "-wal", "-shm", ".lock"]) rmSync(`${target}${suffix}`, { force: true });

const clock = new ManualClock(FIXTURE_START_MS);
const config = parseConfig({
  http: { port: 0 },
  store: { path: target },
  poll: { interval_seconds: 60 },
  sources: [{ kind: "simulated", hosts: 3, gpus_per_host: 2, seed: 7 }],
  hosts: { "gpu-a": { purchase_price: 30000 }, "gpu-b": { cost_per_hour: 2.5, rented: true } },
});
const loaded = { config, env: readEnv({}), file: null };
const bot = await startBot({
  loaded,
  logger: silentLogger,
  pathEnv: "",
  hostName: "fixture",
  stdout: new PassThrough(),
  clock,
});
for (let poll = 0; poll < FIXTURE_POLLS; poll++) {
  clock.advance(MINUTE_MS);
  await bot.pollNow();
}
await bot.stop();
clock.advance(24 * 60 * MINUTE_MS);
reportOnce({ loaded, clock }, { since: "2026-11-02", until: "2026-11-02" });

const db = new BetterSqlite3(target);
db.pragma("journal_mode = DELETE");
db.exec("VACUUM");
db.close();
rmSync(`${target}.lock`, { force: true });
process.stdout.write(`wrote ${target}\n`);
