import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { describeConfigError } from "../../src/config/describe-config.ts";
import { ConfigError, loadConfig } from "../../src/config/load-config.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-overlaps-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function load(text: string) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return loadConfig({}, { file, cwd: dir });
}

const entry = (user: string, gpus: string, every: string, from: string, to: string) =>
  `  - { user: ${user}, gpus: "${gpus}", every: "${every}", from: "${from}", to: "${to}" }\n`;

describe("standing reservations that overlap", () => {
  it("are refused at load, naming both", () => {
    let problem: ConfigError | null = null;
    try {
      load(
        `reservations:\n${entry("U0ALICE", "gpu-a:0-3", "weekdays", "09:00", "12:00")}${entry("U0BOB", "gpu-a:3,4", "mon,sat", "11:00", "13:00")}`,
      );
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      problem = error;
    }
    assert.ok(problem !== null, "the configuration is refused");
    assert.match(
      describeConfigError(problem),
      /at reservations\.1\n +expected: overlaps reservations\[0\]: gpu-a:3,4 mon,sat 11:00–13:00 \(U0BOB\) and gpu-a:0-3 weekdays 09:00–12:00 \(U0ALICE\) hold the same GPUs at the same time/,
    );
  });

  it("accept windows that only touch, other GPUs, other days and other hosts", () => {
    const { config } = load(
      `reservations:\n${entry("U0ALICE", "gpu-a:0-3", "weekdays", "09:00", "12:00")}${entry("U0BOB", "gpu-a:0-3", "weekdays", "12:00", "14:00")}${entry("U0BOB", "gpu-a:4-7", "daily", "09:00", "12:00")}${entry("U0BOB", "gpu-c", "weekends", "09:00", "12:00")}${entry("U0BOB", "gpu-b", "weekdays", "09:00", "12:00")}`,
    );
    assert.equal(config.reservations.length, 5);
  });

  it("a whole host overlaps any of its GPUs", () => {
    assert.throws(
      () =>
        load(
          `reservations:\n${entry("U0ALICE", "gpu-a", "daily", "00:00", "24:00")}${entry("U0BOB", "gpu-a:7", "fri", "10:00", "11:00")}`,
        ),
      ConfigError,
    );
  });
});
