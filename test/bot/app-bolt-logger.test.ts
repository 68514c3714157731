import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, test } from "node:test";
import bolt from "@slack/bolt";
import { boltLogger } from "../../src/bot/transport/bolt-logger.ts";
import { createLogger } from "../../src/shared/logger.ts";

const { LogLevel } = bolt;

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    level,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString("utf8").split("\n")) if (line !== "") lines.push(JSON.parse(line));
        callback();
      },
    }),
  );
  return { logger, lines };
}

describe("boltLogger: Bolt's logs in our pino logger", () => {
  test("strings are joined, objects serialised, the first Error becomes err", () => {
    const { logger, lines } = capture("debug");
    const bridge = boltLogger(logger, "bolt");
    bridge.info("Now connected", { attempt: 2 });
    bridge.error("Slack API error: not_in_channel", new Error("An API error occurred: not_in_channel"));
    bridge.debug(new Error("only an error"));
    assert.deepEqual(
      lines.map((l) => [
        l.level,
        l.component,
        l.slack,
        l.msg,
        (l.err as { message?: string } | undefined)?.message,
      ]),
      [
        [30, "slack", "bolt", 'Now connected {"attempt":2}', undefined],
        [50, "slack", "bolt", "Slack API error: not_in_channel", "An API error occurred: not_in_channel"],
        [20, "slack", "bolt", "only an error", "only an error"],
      ],
    );
  });

  test("levels follow pino's; setLevel narrows only the bridge; setName renames", () => {
    const { logger, lines } = capture("info");
    const bridge = boltLogger(logger, "web-api");
    assert.equal(bridge.getLevel(), LogLevel.INFO);
    bridge.debug("dropped");
    bridge.setLevel(LogLevel.WARN);
    bridge.info("dropped too");
    bridge.setName("web-api:WebClient:0");
    bridge.warn("kept");
    logger.info("ours still at info");
    assert.deepEqual(
      lines.map((l) => [l.slack, l.msg]),
      [
        ["web-api:WebClient:0", "kept"],
        [undefined, "ours still at info"],
      ],
    );
  });

  test("quiet writes everything at debug", () => {
    const { logger, lines } = capture("info");
    boltLogger(logger, "outbox", { quiet: true }).error("[ERROR] must be less than 151 characters");
    assert.deepEqual(lines, []);
    const verbose = capture("debug");
    boltLogger(verbose.logger, "outbox", { quiet: true }).error("[ERROR] must be less than 151 characters");
    assert.deepEqual(
      verbose.lines.map((l) => [l.level, l.msg]),
      [[20, "[ERROR] must be less than 151 characters"]],
    );
  });
});
