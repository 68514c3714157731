import type { HostObservation } from "../../src/domain/observation.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

// Child process of crash-safety.test.ts: writes poll cycles to the database given as argv[2] as
// fast as it can, printing each committed cycle id, until it is killed.
const HOSTS = 200;
const GPUS = 8;
const file = process.argv[2];
if (file === undefined) throw new Error("usage: ingest-loop.ts DATABASE");
const store = createMetricsStore(openDatabase(file));
const startMs = Date.UTC(2026, 2, 2);

for (let cycle = 0; ; cycle++) {
  const atMs = startMs + cycle * 60_000;
  const observations = Array.from({ length: HOSTS }, (_, h): HostObservation => {
    const host = `gpu-${h}`;
    if ((h + cycle) % 17 === 0) {
      return { host, source: "simulated", atMs, ok: false, cause: "timeout", message: `${host}: timed out` };
    }
    return {
      host,
      source: "simulated",
      atMs,
      ok: true,
      gpus: Array.from({ length: GPUS }, (_, index) => ({
        index,
        uuid: `GPU-${h}-${index}`,
        model: "NVIDIA H100 80GB HBM3",
        utilPct: (h * 7 + index + cycle) % 101,
        memUsedMiB: 1000 + cycle,
        memTotalMiB: 81_559,
        powerW: 100 + (cycle % 50),
        tempC: 40,
        mig: false,
        processes: [],
      })),
      sessions: [],
      cpuLoad1: 1,
      cpuUtilPct: 10,
      containers: [],
    };
  });
  const written = store.writeCycle(observations, atMs);
  process.stdout.write(`${written.cycleId}\n`);
}
