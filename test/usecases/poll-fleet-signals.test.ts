import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setImmediate as turn } from "node:timers/promises";
import { sourceSchema } from "../../src/config/schema.ts";
import type { Source } from "../../src/domain/source.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createLocalSource, type LocalSourceConfig } from "../../src/sources/local-source.ts";
import { pollFleet } from "../../src/usecases/fleet/poll-fleet.ts";
import { fixturePath } from "../helpers/fixtures.ts";
import { nvidiaSmiScript, writeScript } from "../helpers/stand-in-commands.ts";

const CAPTURE = "nvidia-smi/utkuozdemir-captures/linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load";

describe("a poll of several local sources", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "gpu-warden-poll-signals-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const localSource = (host: string) => {
    const folder = join(dir, host);
    mkdirSync(folder);
    const nvidiaSmi = writeScript(
      folder,
      "nvidia-smi",
      nvidiaSmiScript({
        gpus: `${fixturePath(CAPTURE)}__query-gpu.csv`,
        apps: `${fixturePath(CAPTURE)}__query-compute-apps.csv`,
        log: join(folder, "args.log"),
      }),
    );
    const config = sourceSchema.parse({ kind: "local", host, nvidia_smi: nvidiaSmi }) as LocalSourceConfig;
    return createLocalSource(config, {
      clock: new ManualClock(Date.UTC(2026, 6, 14, 8, 13)),
      logger: silentLogger,
      hostName: host,
      loadAvg1: () => 0.1,
    });
  };

  test("five local sources read every host and print no warning (no abort listener piles up on one signal)", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const sources = ["box-1", "box-2", "box-3", "box-4", "box-5"].map(localSource);
      for (let poll = 0; poll < 3; poll++) {
        const result = await pollFleet({
          sources,
          store: null,
          clock: new ManualClock(Date.UTC(2026, 6, 14, 8, 13 + poll)),
          logger: silentLogger,
          metrics: null,
          timeoutMs: 30_000,
        });
        assert.deepEqual(
          result.observations.map((observation) => [observation.host, observation.ok]),
          ["box-1", "box-2", "box-3", "box-4", "box-5"].map((host) => [host, true]),
        );
      }
      await turn();
      assert.deepEqual(warnings, []);
    } finally {
      process.off("warning", onWarning);
    }
  });

  test("a source still running at the deadline is aborted on its own signal: its hosts are unknown, the others read", async () => {
    const hanging: Source = {
      kind: "ssh",
      hosts: ["slow-1", "slow-2"],
      poll: (signal) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
        ),
    };
    const result = await pollFleet({
      sources: [localSource("box-9"), hanging],
      store: null,
      clock: new ManualClock(Date.UTC(2026, 6, 14, 8, 13)),
      logger: silentLogger,
      metrics: null,
      timeoutMs: 3_000,
    });
    assert.deepEqual(
      result.observations.map((observation) => [observation.host, observation.ok]),
      [
        ["box-9", true],
        ["slow-1", false],
        ["slow-2", false],
      ],
    );
  });
});
