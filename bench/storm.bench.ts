import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configSchema } from "../src/config/schema.ts";
import type { HostObservation } from "../src/domain/observation.ts";
import { restoreHistory } from "../src/main/restore-history.ts";
import { startHttpServer } from "../src/observability/http-server.ts";
import { ManualClock, MINUTE_MS } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { restoreWindowMinutes } from "../src/usecases/alerts/alert-policy.ts";
import { report, round } from "./report.ts";
import {
  composeStormBot,
  STORM_CHANNEL,
  STORM_OWNERS,
  startStormEmulator,
  stormOwner,
  timeStorm,
} from "./storm-bot.ts";

// A storm: 2,000 hosts (8 GPUs, 50 owners) turn idle in one poll, against the Slack emulator
// enforcing Slack's limits. storm_s: Slack time (the outbox's paced waits move the clock) from the
// poll until the digest and every owner's DM are posted; thread_s: until the last alert is in the
// digest's thread. Then a restart over the same store with the 2,000 alerts open: restart_ms from
// composing the bot to /healthz answering, restore_ms for the idle states (no look-back: the store
// is recent), and the posts the restart made (must be 0).
const HOSTS = 2_000;
const T0 = Date.UTC(2026, 0, 6, 1, 0);

const hosts = Array.from({ length: HOSTS }, (_, i) => `gpu-${String(i).padStart(4, "0")}`);
const config = configSchema.parse({
  slack: { channel: STORM_CHANNEL },
  policy: { idle_for_minutes: 5 },
  alerts: { digest_over: 10 },
  hosts: Object.fromEntries(hosts.map((host, i) => [host, { owners: [stormOwner(i)], cost_per_hour: 2 }])),
});

const idle = (atMs: number): HostObservation[] =>
  hosts.map((host) => ({
    host,
    source: "ssh",
    atMs,
    ok: true,
    gpus: Array.from({ length: 8 }, (_, index) => ({
      index,
      uuid: null,
      model: null,
      utilPct: 0,
      memUsedMiB: 0,
      memTotalMiB: 81_920,
      powerW: 60,
      tempC: 30,
      mig: false,
      processes: [],
    })),
    sessions: [],
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  }));

const clock = new ManualClock(T0);
const dir = mkdtempSync(join(tmpdir(), "gpu-warden-storm-"));
const emulator = await startStormEmulator(clock);

function compose() {
  const db = openDatabase(join(dir, "gpu-warden.db"));
  return { db, bot: composeStormBot({ config, clock, db, emulator, sources: [] }) };
}

const first = compose();
first.bot.alerts.restore();
first.bot.delivery.outbox!.start();
let pollAtMs = T0;
for (let i = 0; i < 6; i++) {
  pollAtMs = clock.now();
  const batch = idle(pollAtMs);
  first.bot.stores.store.writeCycle(batch, pollAtMs);
  first.bot.alerts.onPoll({ atMs: pollAtMs, observations: batch });
  if (i < 5) clock.advance(MINUTE_MS);
}
const storm = await timeStorm(first.bot, emulator, {
  db: first.db,
  pollAtMs,
  wallStartMs: performance.now(),
  owners: Array.from({ length: STORM_OWNERS }, (_, i) => stormOwner(i)),
});
await first.bot.delivery.outbox!.stop();
first.db.close();

const postsBefore = emulator.calls("chat.postMessage").length;
const restartStart = performance.now();
const second = compose();
const http = await startHttpServer(
  { registry: second.bot.stores.metrics.registry, health: second.bot.health.report },
  "127.0.0.1",
  0,
);
const health = await fetch(`${http.url}/healthz`);
const restartMs = performance.now() - restartStart;
const restoreStart = performance.now();
const lookedBack = await restoreHistory(
  {
    sources: [],
    store: second.bot.stores.store,
    storePath: join(dir, "gpu-warden.db"),
    alerts: second.bot.alerts,
    clock,
    logger: silentLogger,
  },
  restoreWindowMinutes(second.bot.deps.idlePolicy) * MINUTE_MS,
  60_000,
);
const restoreMs = performance.now() - restoreStart;
second.bot.delivery.outbox!.start();
const batch = idle(clock.now());
second.bot.stores.store.writeCycle(batch, clock.now());
second.bot.alerts.onPoll({ atMs: clock.now(), observations: batch });
await second.bot.delivery.outbox!.drain(600_000);
const repost = emulator.calls("chat.postMessage").length - postsBefore;
await second.bot.delivery.outbox!.stop();
await http.close();
second.db.close();
await emulator.close();
rmSync(dir, { recursive: true, force: true });

report({
  name: "storm",
  value: storm.storm_s,
  unit: "s",
  baseline: null,
  ratio: null,
  target: 60,
  ...storm,
  hosts: HOSTS,
  gpus: HOSTS * 8,
  owners: STORM_OWNERS,
  restart_ms: round(restartMs, 1),
  healthz_status: health.status,
  restore_ms: round(restoreMs, 1),
  look_back: lookedBack,
  reposted_after_restart: repost,
});
