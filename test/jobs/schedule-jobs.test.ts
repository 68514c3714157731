import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import type { JobTimer } from "../../src/jobs/job-timer.ts";
import { scheduleJobs } from "../../src/jobs/schedule-jobs.ts";
import { cronForInterval } from "../../src/shared/cron-for-interval.ts";
import { createLogger } from "../../src/shared/logger.ts";

function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger("debug", stream) };
}

describe("scheduleJobs", () => {
  it("never stacks a slow job: overlapping slots are skipped and logged", async () => {
    const { lines, logger } = captureLogs();
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const jobs = scheduleJobs(
      [
        {
          name: "poll",
          schedule: "* * * * * *",
          timezone: "UTC",
          runAtStart: true,
          run: async () => {
            running++;
            runs++;
            maxRunning = Math.max(maxRunning, running);
            await sleep(2200);
            running--;
          },
        },
      ],
      logger,
    );
    await sleep(4000);
    await jobs.stop();
    assert.equal(maxRunning, 1, "two runs of the same job never overlap");
    assert.ok(runs >= 1 && runs <= 3, `runs: ${runs}`);
    assert.ok(
      lines.some((line) => line.job === "poll" && String(line.msg).startsWith("slow job")),
      "the skipped slot is logged",
    );
  });

  it("logs a failing job with its name and keeps scheduling", async () => {
    const { lines, logger } = captureLogs();
    const jobs = scheduleJobs(
      [
        {
          name: "rollup",
          schedule: "0 0 * * * *",
          timezone: "UTC",
          run: () => Promise.reject(new Error("disk full")),
        },
      ],
      logger,
    );
    await jobs.runNow("rollup");
    await jobs.stop();
    const failure = lines.find((line) => line.msg === "job failed");
    assert.equal(failure?.job, "rollup");
    assert.equal((failure?.err as { message?: string } | undefined)?.message, "disk full");
  });

  it("starts a job with startAfter once the named job's start run has ended, and not after a stop", async () => {
    const { logger } = captureLogs();
    const quiet: JobTimer = { schedule: () => ({ destroy() {} }), startSlots: () => ({ destroy() {} }) };
    const startOf = (log: string[]) => {
      let endPoll = () => {};
      const pollEnds = new Promise<void>((resolve) => {
        endPoll = resolve;
      });
      const jobs = scheduleJobs(
        [
          {
            name: "rollup",
            schedule: "30 5 * * * *",
            timezone: "UTC",
            runAtStart: true,
            startAfter: "poll",
            run: () => void log.push("rollup"),
          },
          {
            name: "poll",
            schedule: "* * * * *",
            timezone: "UTC",
            runAtStart: true,
            run: async () => {
              log.push("poll begins");
              await pollEnds;
              log.push("poll ends");
            },
          },
          {
            name: "sweep",
            schedule: "* * * * *",
            timezone: "UTC",
            runAtStart: true,
            run: () => void log.push("sweep"),
          },
        ],
        logger,
        undefined,
        quiet,
      );
      return { jobs, endPoll };
    };

    const log: string[] = [];
    const { jobs, endPoll } = startOf(log);
    await setImmediate();
    assert.deepEqual(log, ["poll begins", "sweep"], "the rollup waits for the first poll");
    endPoll();
    for (let turn = 0; turn < 10 && !log.includes("rollup"); turn++) await setImmediate();
    await jobs.stop();
    assert.deepEqual(log, ["poll begins", "sweep", "poll ends", "rollup"]);

    const stoppedLog: string[] = [];
    const stopped = startOf(stoppedLog);
    const stopping = stopped.jobs.stop();
    stopped.endPoll();
    await stopping;
    assert.deepEqual(
      stoppedLog,
      ["poll begins", "sweep", "poll ends"],
      "stopped during the first poll: no rollup",
    );
  });
});

describe("cronForInterval", () => {
  it("maps intervals a clock face divides to cron expressions", () => {
    assert.equal(cronForInterval(60), "0 * * * * *");
    assert.equal(cronForInterval(15), "*/15 * * * * *");
    assert.equal(cronForInterval(300), "0 */5 * * * *");
    assert.equal(cronForInterval(3600), "0 0 * * * *");
    assert.equal(cronForInterval(45), null);
    assert.equal(cronForInterval(420), null);
  });
});
