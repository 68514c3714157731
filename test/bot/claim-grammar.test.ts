import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { commandNames, rightForm } from "../../src/bot/commands/command-table.ts";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import { answerCommand } from "../../src/bot/listeners/commands/gpu-command.ts";
import { commandProblemText } from "../../src/bot/views/command-problem-text.ts";
import { translator } from "../../src/messages/translator.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { observed } from "../checks/builders.ts";
import { BOB, T0, UseCaseRig } from "../helpers/bot-harness.ts";

const EN = translator({ language: "en", timeZone: "UTC", currency: "USD" });

const DAY_MS = 24 * HOUR_MS;
const slots = (host: string, gpus: number[] | null) => ({ kind: "slots" as const, slots: { host, gpus } });

describe("the claim grammar", () => {
  test("accepted forms", () => {
    const cases: Array<[string, unknown]> = [
      ["claim gpu-a", { kind: "claim", target: slots("gpu-a", null), durationMs: null, note: "" }],
      [
        "claim gpu-a:0,1 for 4h llama sft",
        { kind: "claim", target: slots("gpu-a", [0, 1]), durationMs: 4 * HOUR_MS, note: "llama sft" },
      ],
      [
        "Claim gpu-a:0-3 30m",
        { kind: "claim", target: slots("gpu-a", [0, 1, 2, 3]), durationMs: 30 * MINUTE_MS, note: "" },
      ],
      [
        "claim gpu-a:0 FOR 2d",
        { kind: "claim", target: slots("gpu-a", [0]), durationMs: 2 * DAY_MS, note: "" },
      ],
      [
        "claim gpu-a eval run",
        { kind: "claim", target: slots("gpu-a", null), durationMs: null, note: "eval run" },
      ],
      [
        "claim 2 a100 for 8h",
        {
          kind: "claim",
          target: { kind: "count", count: 2, model: "a100" },
          durationMs: 8 * HOUR_MS,
          note: "",
        },
      ],
      [
        "claim 2 for 4h sweep",
        {
          kind: "claim",
          target: { kind: "count", count: 2, model: null },
          durationMs: 4 * HOUR_MS,
          note: "sweep",
        },
      ],
      [
        "claim 1 h100",
        { kind: "claim", target: { kind: "count", count: 1, model: "h100" }, durationMs: null, note: "" },
      ],
      ["release", { kind: "release", target: { kind: "default" } }],
      ["release ALL", { kind: "release", target: { kind: "all" } }],
      [
        "release gpu-a:0,1",
        { kind: "release", target: { kind: "slots", slots: { host: "gpu-a", gpus: [0, 1] } } },
      ],
      ["extend gpu-a:0 4h", { kind: "extend", slots: { host: "gpu-a", gpus: [0] }, durationMs: 4 * HOUR_MS }],
      [
        "extend gpu-a for 1h30m",
        { kind: "extend", slots: { host: "gpu-a", gpus: null }, durationMs: 90 * MINUTE_MS },
      ],
      ["mine", { kind: "mine" }],
      ["status cluster=b", { kind: "status", host: null, cluster: "b" }],
      ["status b/node-17", { kind: "status", host: "b/node-17" }],
      [
        "release b/node-17:0-1",
        { kind: "release", target: { kind: "slots", slots: { host: "b/node-17", gpus: [0, 1] } } },
      ],
    ];
    for (const [text, expected] of cases) assert.deepEqual(parseCommand(text), expected, text);
  });

  test("rejected forms say what was wrong and name the command whose form is shown", () => {
    const cases: Array<[string, string, string]> = [
      ["claim", "claim", "`claim` needs a host (gpu-a, gpu-a:0,1) or a number of GPUs (2, or 2 a100)."],
      [
        "claim gpu-a:x",
        "claim",
        "`gpu-a:x` is not a GPU list: use gpu-a:0, gpu-a:0,1 or gpu-a:0-3 (GPUs 0 to 255), or gpu-a:0.3 for MIG instance 3 of GPU 0.",
      ],
      [
        "claim gpu-a:3-1",
        "claim",
        "`gpu-a:3-1` is not a GPU list: use gpu-a:0, gpu-a:0,1 or gpu-a:0-3 (GPUs 0 to 255), or gpu-a:0.3 for MIG instance 3 of GPU 0.",
      ],
      ["claim gpu<a>", "claim", "`gpu&lt;a&gt;` is not a host name: letters, digits, '.', '_' or '-'."],
      ["claim gpu-a for", "claim", "`for` needs a duration: `30m`, `4h` or `2d`."],
      ["claim gpu-a for soon", "claim", "`soon` is not a duration: use `30m`, `4h` or `2d`."],
      ["claim 0 a100", "claim", "`0` GPUs: the count goes from 1 to 256."],
      [`claim gpu-a ${"x".repeat(201)}`, "claim", "The note is 201 characters long; the limit is 200."],
      ["release gpu-a extra", "release", "Unexpected `extra` after `release`."],
      ["extend", "extend", "`extend` needs a claim and a duration."],
      ["extend gpu-a:0", "extend", "`extend gpu-a:0` needs a duration."],
      [
        "extend 4h",
        "extend",
        "`extend 4h`: which claim? Name its host first: `extend gpu-a 4h` (or gpu-a:0).",
      ],
      ["keep 4h", "keep", "`keep 4h`: which host? Name it first: `keep gpu-a 4h`."],
      ["keep tomorrow", "keep", "`keep tomorrow`: which host? Name it first: `keep gpu-a tomorrow`."],
      ["keep gpu-a", "keep", "`keep gpu-a` needs a duration."],
      ["extend gpu-a:0 later", "extend", "`later` is not a duration: use `30m`, `4h` or `2d`."],
      ["mine please", "mine", "Unexpected `please` after `mine`."],
      ["clam gpu-a", "claim", "Unknown command `clam`; did you mean `claim`?"],
    ];
    for (const [text, command, problem] of cases) {
      const parsed = parseCommand(text);
      assert.equal(parsed.kind, "invalid", text);
      if (parsed.kind !== "invalid") continue;
      assert.equal(parsed.command, command, text);
      assert.equal(commandProblemText(EN, parsed.problem), problem, text);
    }
  });

  describe("every answer over the real use-cases and SQLite", () => {
    let rig: UseCaseRig;
    before(() => {
      rig = new UseCaseRig({ team: { timezone: "Europe/Berlin" }, hosts: { "gpu-a": {}, "gpu-b1": {} } });
      rig.fleet.observe(observed("gpu-a", T0, [0, 0, 0, 95]));
      rig.fleet.observe(observed("gpu-b1", T0, [0, 0]));
    });
    after(() => rig.close());

    test("errors from the use-cases show the right form too", () => {
      const answer = (text: string) => answerCommand(rig.deps, BOB, text).text;
      assert.equal(
        answer("claim gpu-b"),
        `no host gpu-b; did you mean gpu-b1?\nRight form: ${rightForm(EN, "claim")}`,
      );
      assert.equal(
        answer("claim gpu-a:4"),
        `gpu-a has GPUs 0-3: there is no GPU 4.\nRight form: ${rightForm(EN, "claim")}`,
      );
      assert.equal(
        answer("claim gpu-a:0 for 4d"),
        `A claim lasts at most 3 d; you asked for 4 d.\nRight form: ${rightForm(EN, "claim")}`,
      );
      assert.equal(
        answer("extend gpu-c 4h"),
        `no host gpu-c; did you mean gpu-a?\nRight form: ${rightForm(EN, "extend")}`,
      );
      assert.equal(
        answer("release gpu-a:9"),
        `gpu-a has GPUs 0-3: there is no GPU 9.\nRight form: ${rightForm(EN, "release")}`,
      );
    });

    test("host names match whatever their case, in every command that names one", () => {
      const answer = (text: string) => answerCommand(rig.deps, BOB, text).text;
      assert.equal(answer("status GPU-A"), answer("status gpu-a"));
      assert.doesNotMatch(answer("status Gpu-B1"), /no host/);
      assert.equal(answer("claim GPU-A:2 for 1h"), "You hold gpu-a:2 until 11:00 (1 h).");
      assert.equal(answer("extend Gpu-A:2 1h"), "gpu-a:2 is yours until 12:00.");
      assert.equal(answer("release GPU-A:2"), "Released gpu-a:2.");
      assert.doesNotMatch(answer("keep GPU-B1 1h"), /no host/);
      assert.doesNotMatch(answer("stop gpu-B1"), /no host/);
    });

    test("property: arbitrary text never throws; every rejected form shows the right form", () => {
      const word = fc.oneof(
        fc.constantFrom(
          "claim",
          "release",
          "extend",
          "mine",
          "all",
          "for",
          "FOR",
          "gpu-a",
          "gpu-b1",
          "gpu-b",
        ),
        fc.constantFrom(
          "gpu-a:0",
          "gpu-a:0,1",
          "gpu-a:0-3",
          "gpu-a:9",
          "gpu-a:x",
          "gpu-b1:1",
          "2",
          "0",
          "99999",
        ),
        fc.constantFrom("a100", "h100", "30m", "4h", "2d", "90d", "0m", "soon", "<@U1>", "`", "&", ":", "-"),
        fc.string({ maxLength: 12 }),
      );
      const command = fc.constantFrom("claim", "release", "extend", "mine", "");
      fc.assert(
        fc.property(command, fc.array(word, { maxLength: 6 }), (name, words) => {
          const text = [name, ...words].join(" ");
          const parsed = parseCommand(text);
          const reply = answerCommand(rig.deps, BOB, text);
          assert.ok(reply.text.length > 0 && reply.text.length <= 4000);
          if (parsed.kind === "invalid") {
            if (parsed.command === null) assert.match(reply.text, /`\/gpu help` lists the commands\.$/);
            else {
              assert.ok(commandNames().includes(parsed.command));
              assert.ok(reply.text.endsWith(`\nRight form: ${rightForm(EN, parsed.command)}`), reply.text);
            }
          }
        }),
        { numRuns: 400, seed: 4242 },
      );
    });
  });
});
