import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { COMMANDS } from "../../src/bot/commands/command-table.ts";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import {
  hostActionValueSchema,
  keepActionValueSchema,
  keepValue,
  parseActionValue,
  stopValue,
} from "../../src/bot/ids.ts";
import { commandProblemText } from "../../src/bot/views/command-problem-text.ts";
import { stopResultReply } from "../../src/bot/views/power/reply-stop.ts";
import { renderFleetStatus } from "../../src/bot/views/status/status-fleet.ts";
import { renderHostStatus } from "../../src/bot/views/status/status-host.ts";
import { translator } from "../../src/messages/translator.ts";
import type { JsonObject } from "../../src/playground/slack-emulator/json.ts";
import { checkMessageContent } from "../../src/playground/slack-emulator/message-content.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import type { FleetStatus, HostDetail, HostSummary } from "../../src/usecases/fleet/read-fleet-status.ts";
import { observed, T0 } from "../checks/builders.ts";

const EN = translator({ language: "en", timeZone: "UTC", currency: "USD" });
const tr = translator({ language: "en", timeZone: "UTC", currency: "USD" });

/** What Slack would answer to these blocks and text (the emulator's own checks). */
function slackAccepts(reply: { text: string; blocks?: unknown[] }): true | JsonObject {
  const check = checkMessageContent(reply as unknown as JsonObject, {
    maxTextChars: 4000,
    blocksTextLimitChars: 12_000,
  });
  return check.ok ? true : check.body;
}

function summary(host: string, i: number): HostSummary {
  const statuses: HostSummary["status"][] = [
    "busy",
    "busy",
    "busy",
    "idle",
    "unknown",
    "idle-pending",
    "snoozed",
    "exempt",
  ];
  const status = statuses[i % statuses.length]!;
  return {
    host,
    status,
    gpus: 8,
    busyGpus: status === "busy" ? 5 : 0,
    suspectGpus: [],
    meanUtilPct: status === "unknown" ? null : 41.5,
    idleSinceMs: status === "idle" || status === "idle-pending" ? T0 - 95 * MINUTE_MS : null,
    lastOkAtMs: T0 - 30 * MINUTE_MS,
    problem:
      status === "unknown" ? `${host}: ssh: connect to host ${host} port 22: Connection timed out` : null,
    activeUsers: [],
    unclaimedBusy: [],
    claims:
      i % 5 === 0
        ? [
            {
              id: i,
              host,
              gpuIndex: null,
              user: "U0BOB",
              fromMs: T0,
              untilMs: T0 + HOUR_MS,
              note: "",
              releasedAtMs: null,
              releasedBy: null,
              endReason: null,
              remindedAtMs: null,
              nudgedAtMs: null,
              stillUsingAtMs: null,
            },
          ]
        : [],
    snooze: status === "snoozed" ? { host, untilMs: T0 + HOUR_MS, byUser: "U0ALICE", setAtMs: T0 } : null,
    openAlert: null,
  };
}

describe("the fleet board", () => {
  for (const size of [1, 12, 150, 2000]) {
    test(`${size} hosts: within Slack's limits, idle first, every host listed or counted`, () => {
      const hosts = Array.from({ length: size }, (_, i) =>
        summary(`gpu-node-${String(i).padStart(4, "0")}`, i),
      );
      const status: FleetStatus = { atMs: T0, timezone: "Europe/Berlin", hosts };
      const reply = renderFleetStatus(tr, status, "/gpu");
      assert.equal(slackAccepts(reply), true);
      const blocks = reply.blocks ?? [];
      assert.ok(blocks.length <= 50);
      const texts = blocks.map((block) => JSON.stringify(block));
      const listed = texts.join("").match(/• \*gpu-node-/g)?.length ?? 0;
      const counted = Number(/…and (\d+) more hosts/.exec(texts.at(-1) ?? "")?.[1] ?? 0);
      assert.equal(listed + counted, size);
      if (size > 3)
        assert.match(texts[2] ?? "", /^\{"type":"section","text":\{"type":"mrkdwn","text":"\*Idle\* \(/);
    });
  }

  test("one line per host says what matters", () => {
    const reply = renderFleetStatus(
      tr,
      { atMs: T0, timezone: "UTC", hosts: [summary("a", 3), summary("b", 4), summary("c", 6)] },
      "/gpu",
    );
    const lines = (reply.blocks ?? [])
      .slice(2)
      .map((block) => (block as { text: { text: string } }).text.text);
    assert.deepEqual(lines, [
      "*Idle* (1)\n• *a* idle since 07:25 (1 h 35 min) · 8 GPUs at 42 %",
      "*No data* (1)\n• *b* no data since 08:30 (b: ssh: connect to host b port 22: Connection timed out)",
      "*Kept* (1)\n• *c* kept by <@U0ALICE> until 10:00 · 8 GPUs at 42 %",
    ]);
  });
});

describe("one host in detail", () => {
  test("a 16-GPU host with many processes stays within the limits", () => {
    const observation = observed(
      "big",
      T0,
      Array.from({ length: 16 }, () => 3),
    );
    for (const gpu of observation.gpus) {
      gpu.processes = Array.from({ length: 9 }, (_, pid) => ({
        pid,
        user: `user-with-a-long-name-${pid}`,
        name: `/opt/conda/envs/training/bin/python -m torch.distributed.run --nproc ${pid}`,
        usedMemoryMiB: 4096,
        container: null,
        pod: null,
        namespace: null,
      }));
    }
    const detail: HostDetail = {
      ...summary("big", 3),
      observation,
      episode: null,
      settings: null,
      stopAction: "ssh big sudo poweroff",
      dryRun: false,
      latestAlert: null,
      recentAudit: Array.from({ length: 5 }, (_, id) => ({
        id,
        atMs: T0,
        actor: "U0ALICE",
        action: "keep",
        host: "big",
        detail: {},
        exitCode: null,
        outputTail: null,
        forced: false,
        dryRun: false,
      })),
      warden: null,
    };
    assert.equal(slackAccepts(renderHostStatus(tr, detail, T0)), true);
  });
});

describe("replies", () => {
  test("an admin's refusal carries Stop anyway with a confirm dialog that fits", () => {
    const reply = stopResultReply(
      tr,
      {
        kind: "refused",
        reason: "busy",
        host: "h".repeat(200),
        facts: { reason: "busy", gpus: [{ slot: "3", utilPct: 97 }] },
        forceable: true,
      },
      { canForce: true, alertId: 9 },
    );
    assert.equal(slackAccepts(reply), true);
    const element = (reply.blocks![1] as { elements: Array<{ action_id: string; value: string }> })
      .elements[0];
    assert.equal(element?.action_id, "stop_host_force");
    assert.deepEqual(JSON.parse(element?.value ?? ""), { host: "h".repeat(200), alertId: 9 });
  });
});

describe("parseCommand", () => {
  test("the accepted forms", () => {
    assert.deepEqual(parseCommand(""), { kind: "help", bare: true });
    assert.deepEqual(parseCommand("  HELP "), { kind: "help", bare: false });
    assert.deepEqual(parseCommand("status"), { kind: "status", host: null });
    assert.deepEqual(parseCommand("status gpu-a"), { kind: "status", host: "gpu-a" });
    assert.deepEqual(parseCommand("keep gpu-a 1h30m"), {
      kind: "keep",
      host: "gpu-a",
      span: { kind: "for", ms: 90 * MINUTE_MS },
      spanText: "1 h 30 min",
    });
    assert.deepEqual(parseCommand("keep gpu-a Tomorrow"), {
      kind: "keep",
      host: "gpu-a",
      span: { kind: "tomorrow" },
      spanText: "tomorrow",
    });
    assert.deepEqual(parseCommand("stop   gpu-a"), { kind: "stop", host: "gpu-a" });
  });

  test("arbitrary text never throws, and every rejection names a command in the table or none", () => {
    const names = new Set(COMMANDS.map((command) => command.name));
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const parsed = parseCommand(text);
        if (parsed.kind === "invalid") {
          assert.ok(parsed.command === null || names.has(parsed.command));
          const problem = commandProblemText(EN, parsed.problem);
          assert.ok(problem.length > 0 && problem.length < 300);
          assert.ok(!problem.includes("<"), "user text is escaped");
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("button values", () => {
  test("round-trip, and bad ones are problems, not throws", () => {
    assert.deepEqual(parseActionValue(hostActionValueSchema, stopValue("gpu-a", 12)), {
      ok: true,
      value: { host: "gpu-a", alertId: 12 },
    });
    assert.deepEqual(parseActionValue(keepActionValueSchema, keepValue("gpu-a", null, "tomorrow")), {
      ok: true,
      value: { host: "gpu-a", keep: "tomorrow" },
    });
    for (const raw of [undefined, "", "gpu-a", '{"host":"-bad"}', '{"host":"gpu-a","alertId":-1}', "[]"]) {
      const parsed = parseActionValue(hostActionValueSchema, raw);
      assert.equal(parsed.ok, false, String(raw));
    }
  });
});
