import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import bolt from "@slack/bolt";
import { alertDirectMessage } from "../../../src/bot/views/alerts/alert-direct-message.ts";
import { alertDuration, alertWhen, joinLines } from "../../../src/bot/views/alerts/alert-format.ts";
import {
  type AlertGpu,
  type IdleAlertView,
  idleAlertMessage,
} from "../../../src/bot/views/alerts/alert-message.ts";
import { noDataMessage } from "../../../src/bot/views/alerts/alert-no-data.ts";
import { type AlertEnding, resolvedAlertMessage } from "../../../src/bot/views/alerts/alert-resolved.ts";
import { sparkline } from "../../../src/bot/views/alerts/sparkline.ts";
import { bucketUtil } from "../../../src/checks/bucket-util.ts";
import type { GpuProcess, LoginSession } from "../../../src/domain/observation.ts";
import { translator } from "../../../src/messages/translator.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../../src/playground/slack-emulator/start-slack-emulator.ts";
import { blockProblems } from "../../../src/playground/slack-emulator/validate-blocks.ts";

const { WebClient } = bolt.webApi;
const MINUTE_MS = 60_000;
const tr = translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" });
const trUtc = translator({ language: "en", timeZone: "UTC", currency: "EUR" });
/** Monday 2026-01-05 09:00 UTC. */
const T0 = Date.UTC(2026, 0, 5, 9, 0);

function gpu(
  index: number,
  processes: GpuProcess[] = [],
  history: (number | null)[] = [0, 0, 1, null],
): AlertGpu {
  return {
    index,
    utilPct: 0,
    memUsedMiB: processes.length > 0 ? 40_960 : 4,
    memTotalMiB: 81_920,
    processes,
    history,
  };
}

function process(user: string, name: string, usedMemoryMiB: number | null): GpuProcess {
  return { pid: 1, user, name, usedMemoryMiB, container: null, pod: null, namespace: null };
}

function view(more: Partial<IdleAlertView> = {}): IdleAlertView {
  return {
    alertId: 12,
    host: "gpu-a",
    nowMs: T0 + 95 * MINUTE_MS,
    idleSinceMs: T0,
    timezone: "Europe/Berlin",
    currency: "EUR",
    costPerHour: 4,
    gpus: [gpu(0, [process("alice", "python train.py", 40_960)]), gpu(1)],
    historyMinutes: 20,
    sessions: [{ user: "bob", line: "pts/3", from: "10.0.0.9", idleMinutes: 190 }],
    owners: ["U0OWNER"],
    claimants: [],
    snooze: null,
    autoStopAtMs: null,
    escalatedTo: null,
    stopping: null,
    keepUntilTomorrowAt: "09:00",
    dryRun: false,
    ...more,
  };
}

const texts = (blocks: unknown[]): string[] =>
  (blocks as { type: string; text?: { text: string }; elements?: { text?: string }[] }[]).flatMap((block) =>
    block.type === "context"
      ? (block.elements ?? []).map((e) => e.text ?? "")
      : block.text
        ? [block.text.text]
        : [],
  );

describe("sparkline", () => {
  test("eight marks by utilisation, `?` for no reading", () => {
    assert.equal(sparkline([0, 12.4, 12.5, 50, 87.4, 87.5, 99, 100, null]), "▁▁▂▅▇███?");
  });

  test("buckets average the readings in each column; a column without any is unknown", () => {
    const readings = [
      { atMs: 0, utilPct: 10 },
      { atMs: 4, utilPct: 30 },
      { atMs: 5, utilPct: null },
      { atMs: 12, utilPct: 100 },
      { atMs: 20, utilPct: 50 },
    ];
    assert.deepEqual(bucketUtil(readings, 0, 20, 4), [20, null, 100, null]);
  });

  test("polls as far apart as the marks are wide leave no '?' when their phase shifts (a clock-speed change)", () => {
    const minute = 60_000;
    // Every 5 min, then 5 min 16 s once (the playground's clock sped up): one 5-min column has no poll.
    const polls = [0, 5, 10, 15.27, 20.27, 25.27].map((m) => ({ atMs: m * minute, utilPct: 0 }));
    const marks = (holdMs: number) => sparkline(bucketUtil(polls, 1 * minute, 30 * minute + 1, 6, holdMs));
    assert.match(marks(0), /\?/, "without the hold, the shifted column reads as unknown");
    assert.equal(marks(10 * minute), "▁▁▁▁▁▁", "a reading stands for two poll intervals after it");
    const gap = [...polls.slice(0, 2), { atMs: 25 * minute, utilPct: 0 }];
    assert.match(
      sparkline(bucketUtil(gap, 1 * minute, 30 * minute + 1, 6, 10 * minute)),
      /\?/,
      "a real gap stays unknown",
    );
  });
});

describe("alert formatting", () => {
  test("durations and instants in the team's zone", () => {
    const berlin = translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" });
    assert.equal(alertDuration(berlin, 59_999), "0 min");
    assert.equal(alertDuration(berlin, 35 * MINUTE_MS), "35 min");
    assert.equal(alertDuration(berlin, 125 * MINUTE_MS + 59_000), "2 h 5 min", "rounded down");
    assert.equal(alertDuration(berlin, (3 * 24 + 4) * 60 * MINUTE_MS + 5), "3 d 4 h");
    const now = Date.UTC(2026, 2, 29, 12, 0);
    assert.equal(alertWhen(berlin, Date.UTC(2026, 2, 29, 1, 30), now), "03:30", "after the DST switch");
    assert.equal(alertWhen(berlin, Date.UTC(2026, 2, 28, 23, 30), now), "00:30", "the same local day");
    assert.equal(alertWhen(berlin, Date.UTC(2026, 2, 28, 22, 30), now), "Sat 23:30");
    assert.equal(alertWhen(berlin, Date.UTC(2026, 0, 2, 8, 0), now), "Jan 2 09:00");
    assert.equal(alertWhen(trUtc, Date.UTC(2025, 11, 31, 8, 0), now), "Dec 31, 2025 08:00");
    assert.equal(alertWhen(trUtc, Date.UTC(2026, 8, 5, 0, 7), Date.UTC(2026, 8, 30)), "Sep 5 00:07");
    const zh = translator({ language: "zh-CN", timeZone: "Europe/Berlin", currency: "CNY" });
    assert.equal(alertDuration(zh, 125 * MINUTE_MS), "2 小时 5 分钟");
    assert.equal(alertWhen(zh, Date.UTC(2026, 2, 28, 22, 30), now), "周六 23:30");
    assert.equal(alertWhen(zh, Date.UTC(2026, 0, 2, 8, 0), now), "1月2日 09:00");
  });

  test("joinLines keeps within the budget and says how many are left out", () => {
    assert.equal(joinLines(["aaaa", "bbbb", "cccc"], 100), "aaaa\nbbbb\ncccc");
    assert.equal(
      joinLines(["aaaa", "bbbb", "cccc", "dddd"], 19, (n) => `+${n}`),
      "aaaa\nbbbb\ncccc\ndddd",
    );
    assert.equal(
      joinLines(["aaaa", "bbbb", "cccc", "dddd"], 18, (n) => `+${n}`),
      "aaaa\nbbbb\ncccc\n+1",
    );
    const joined = joinLines(
      Array.from({ length: 100 }, (_, i) => `line ${i}`),
      60,
      (n) => `and ${n} more`,
    );
    assert.ok(joined.length <= 60);
    assert.match(joined, /\nand \d+ more$/);
    const shown = joined.split("\n").length - 1;
    assert.equal(joined.split("\n").at(-1), `and ${100 - shown} more`);
  });
});

describe("idle alert message", () => {
  test("shows the evidence, the people and the buttons with their ids and values", () => {
    const message = idleAlertMessage(tr, view());
    assert.equal(message.text, "💤 gpu-a is idle since 10:00 (1 h 35 min, €6.33 so far) <@U0OWNER>");
    assert.deepEqual(texts(message.blocks), [
      "💤 gpu-a is idle",
      "*gpu-a* has been idle since *10:00*: *1 h 35 min*, *€6.33* of capacity unused at €4.00/h.\nOwner: <@U0OWNER>",
      "*GPU utilisation, last 20 min* (one mark per 5 min, `?` = no data)\n```\nGPU 0 ▁▁▁?   0 %  40.0 GiB of 80\nGPU 1 ▁▁▁?   0 %  0.0 GiB of 80\n```",
      "*Memory held*: 40.0 GiB on 1 of 2 GPUs, by:\n• alice: `python train.py` on GPU 0, 40.0 GiB",
      "*Sessions* (none active):\n• bob on pts/3 from 10.0.0.9, idle 3 h 10 min",
      "Times in Europe/Berlin.",
    ]);
    const actions = message.blocks.at(-1) as { type: string; elements: Record<string, unknown>[] };
    assert.equal(actions.type, "actions");
    assert.deepEqual(
      actions.elements.map((e) => [e.action_id, (e.text as { text: string }).text, e.value]),
      [
        ["stop_host", "Stop this host", '{"host":"gpu-a","alertId":12}'],
        ["keep_host_1h", "Keep 1 h", '{"host":"gpu-a","alertId":12,"keep":"1h"}'],
        ["keep_host_4h", "Keep 4 h", '{"host":"gpu-a","alertId":12,"keep":"4h"}'],
        [
          "keep_host_tomorrow",
          "Keep until tomorrow 09:00",
          '{"host":"gpu-a","alertId":12,"keep":"tomorrow"}',
        ],
        ["claim_host", "Claim it", '{"host":"gpu-a","alertId":12}'],
      ],
    );
    assert.deepEqual(actions.elements[0]!.confirm, {
      title: { type: "plain_text", text: "Stop gpu-a?" },
      text: {
        type: "mrkdwn",
        text:
          "⚠️ GPU 0 holds 40.0 GiB (alice: `python train.py`): unsaved work there is lost.\n\n" +
          "The bot checks that gpu-a is still idle, then runs its stop action.",
      },
      confirm: { type: "plain_text", text: "Stop it" },
      deny: { type: "plain_text", text: "Cancel" },
      style: "danger",
    });
    assert.deepEqual(blockProblems(message.blocks, "message"), []);
  });

  test("countdown, keep, escalation, a running stop and dry run each get a line; unknown cost leaves money out", () => {
    const message = idleAlertMessage(
      tr,
      view({
        costPerHour: null,
        claimants: ["U0CLAIM"],
        owners: [],
        autoStopAtMs: T0 + 150 * MINUTE_MS,
        escalatedTo: "U0WARDEN",
        stopping: { actor: "U0CLAIM" },
        dryRun: true,
        sessions: null,
      }),
    );
    const shown = texts(message.blocks);
    assert.equal(shown[1], "*gpu-a* has been idle since *10:00*: *1 h 35 min*.\nClaimed by: <@U0CLAIM>");
    assert.ok(shown.includes("*Sessions*: not visible to this source."));
    assert.deepEqual(shown.slice(-5), [
      "🛑 Stop requested by <@U0CLAIM>: running…",
      "⏱ Stopping at *12:30* unless someone keeps it.",
      "📣 Escalated to the cost warden <@U0WARDEN>.",
      "Dry run: *Stop* shows what would run, nothing more.",
      "Times in Europe/Berlin.",
    ]);
    assert.equal(message.text, "💤 gpu-a is idle since 10:00 (1 h 35 min) <@U0CLAIM>");
  });
});

describe("alert views against the Slack emulator's Block Kit checks", { timeout: 30_000 }, () => {
  let slack: SlackEmulator;
  let client: InstanceType<typeof WebClient>;
  before(async () => {
    slack = await startSlackEmulator({
      channels: [{ id: "C0GPU", name: "gpu" }],
      users: [{ id: "U0OWNER" }],
    });
    client = new WebClient(slack.identity.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  after(async () => {
    await slack.close();
  });

  /** A 16-GPU host with a long name, 40 processes per GPU from 25 users, 60 login sessions. */
  function huge(): IdleAlertView {
    const host = `gpu-${"x".repeat(240)}`;
    const gpus = Array.from({ length: 16 }, (_, index) =>
      gpu(
        index,
        Array.from({ length: 40 }, (_, p) =>
          process(
            `user-${p % 25}-<&>`,
            `python /very/long/path/${"d".repeat(120)}/train_${index}_${p}.py --flag`,
            900 + p,
          ),
        ),
        Array.from({ length: 36 }, (_, i) => (i % 7 === 0 ? null : (i * 3) % 100)),
      ),
    );
    const sessions: LoginSession[] = Array.from({ length: 60 }, (_, i) => ({
      user: `user-${i}`,
      line: `pts/${i}`,
      from: `10.0.${i}.1`,
      idleMinutes: 60 + i,
    }));
    return view({
      host,
      gpus,
      sessions,
      historyMinutes: 180,
      owners: Array.from({ length: 20 }, (_, i) => `U0OWNER${i}`),
      claimants: Array.from({ length: 20 }, (_, i) => `U0CLAIM${i}`),
      autoStopAtMs: T0 + 200 * MINUTE_MS,
      escalatedTo: "U0WARDEN",
      stopping: { actor: "bot" },
      snooze: { untilMs: T0 + 300 * MINUTE_MS, byUser: "U0OWNER" },
      dryRun: true,
    });
  }

  test("a 16-GPU host with many processes and sessions fits, with `and N more`", async () => {
    const message = idleAlertMessage(tr, huge());
    assert.deepEqual(blockProblems(message.blocks, "message"), []);
    const shown = texts(message.blocks).join("\n");
    assert.match(shown, /GPU 15 /, "every GPU has its sparkline line");
    assert.match(shown, /\nand \d+ more\n?/, "holders are cut with `and N more`");
    assert.match(
      shown,
      /• user-\d+-&lt;&amp;&gt;: `python \/very\/long\/path\/d+…d+\/train_\d+_39\.py --flag` on GPU \d+, 0\.9 GiB/,
      "escaped owners, the ends of long command lines",
    );
    const posted = await client.chat.postMessage({
      channel: "C0GPU",
      text: message.text,
      blocks: message.blocks,
    });
    assert.equal(posted.ok, true);
    const updated = await client.chat.update({
      channel: "C0GPU",
      ts: posted.ts!,
      text: message.text,
      blocks: message.blocks,
    });
    assert.equal(updated.ok, true, "chat.update accepts it too (its text limit is 4,000)");
  });

  test("resolved alerts, no-data notices and DMs are accepted as they are", async () => {
    const base = {
      host: huge().host,
      idleSinceMs: T0,
      endedAtMs: T0 + 200 * MINUTE_MS,
      nowMs: T0 + 200 * MINUTE_MS,
      timezone: "Europe/Berlin",
      currency: "EUR",
      costPerHour: 3.5,
    };
    const endings: AlertEnding[] = [
      { kind: "busy" },
      { kind: "stopped", actor: "U0OWNER", dryRun: false },
      { kind: "stopped", actor: "gpu-warden", dryRun: true },
      { kind: "unknown", cause: { kind: "failed", message: `${"x".repeat(5000)}: ssh timed out` } },
      { kind: "snoozed", untilMs: T0 + 24 * 60 * MINUTE_MS, byUser: "U0OWNER" },
      { kind: "exempt" },
      { kind: "policy" },
    ];
    const messages = [
      ...endings.map((ending) => resolvedAlertMessage(tr, { ...base, ending })),
      noDataMessage(trUtc, {
        host: base.host,
        sinceMs: T0,
        lastSampleAtMs: null,
        cause: { kind: "failed", message: "y".repeat(5000) },
        nowMs: base.nowMs,
        timezone: "UTC",
        backAtMs: null,
      }),
      noDataMessage(trUtc, {
        host: base.host,
        sinceMs: T0,
        lastSampleAtMs: T0,
        cause: null,
        nowMs: base.nowMs,
        timezone: "UTC",
        backAtMs: base.nowMs,
      }),
    ];
    for (const message of messages) {
      assert.deepEqual(blockProblems(message.blocks, "message"), []);
      assert.ok(!message.blocks.some((block) => block.type === "actions"), "no buttons once resolved");
      const posted = await client.chat.postMessage({
        channel: "C0GPU",
        text: message.text,
        blocks: message.blocks,
      });
      assert.equal(posted.ok, true);
    }
    const dm = alertDirectMessage(tr, { ...base, reader: "U0OWNER", role: "owner", channel: "C0GPU" });
    const sent = await client.chat.postMessage({ channel: "U0OWNER", text: dm.text, blocks: dm.blocks });
    assert.equal(sent.ok, true);
    assert.match(
      texts(slack.dms("U0OWNER")[0]!.blocks)[0]!,
      /You own it: stop it, keep it or claim it from the alert in <#C0GPU>\.$/,
    );

    const [busy, stopped, dryRun, unknown, kept] = messages;
    assert.deepEqual(texts(busy!.blocks).slice(1), [
      "Was idle from *10:00* to *13:20* (3 h 20 min, €11.67).",
      "Times in Europe/Berlin.",
    ]);
    assert.match(texts(stopped!.blocks)[1]!, /^Stopped by <@U0OWNER>\.\n/);
    assert.match(texts(dryRun!.blocks)[1]!, /^Dry run \(automatic stop\): \*gpu-x+\* was not stopped; /);
    assert.match(texts(unknown!.blocks)[1]!, /^No data from \*gpu-x+\*: x{499}…\. Unknown is not idle/);
    assert.match(texts(kept!.blocks)[1]!, /^Kept by <@U0OWNER> until \*Tue 10:00\*\.\n/);
  });
});
