import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { ALICE, allHosts, BOB, BotHarness, EVE, idleHost, standardConfig } from "../helpers/bot-harness.ts";
import { shownText as shown } from "../helpers/shown-blocks.ts";
import { gpu } from "../store/store-fixtures.ts";

const MEMBERS = Array.from({ length: 50 }, (_, i) => `U0M${String(i).padStart(3, "0")}`);

describe("project quotas under 50 concurrent claims over signed HTTP", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("never above max_gpus: 3 claims win, the rest hear the quota; --wait joins the line with the reason", async () => {
    h = await BotHarness.start({
      transport: "http",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE] }, "gpu-b": { owners: [ALICE] } },
        { projects: { nlp: { members: [...MEMBERS, EVE], max_gpus: 3 }, vision: { members: [BOB] } } },
      ),
    });
    for (const id of MEMBERS) h.emulator.addUser({ id });
    h.pollFor(2, allHosts(idleHost("gpu-a"), idleHost("gpu-b")));
    const deliveries = await Promise.all(
      MEMBERS.map((user) => h.user.slashCommand({ user, text: "claim 1 for 2h" })),
    );
    assert.ok(deliveries.every((delivery) => delivery.acked));
    const held = h.state.claims.activeAt(h.clock.now());
    assert.equal(held.length, 3);
    assert.deepEqual(new Set(held.map((claim) => claim.project)), new Set(["nlp"]));
    const texts = deliveries.map((delivery) => String(delivery.ackPayload?.text));
    assert.equal(texts.filter((text) => text.startsWith("You hold")).length, 3);
    const refusal =
      "Project `nlp` may hold at most 3 GPUs at once: it holds 3 and this asks for 1. Release some, or add `--wait` to join the waiting list.";
    assert.equal(texts.filter((text) => text === refusal).length, 47);
    assert.equal(h.state.audit.byAction("claim-over-quota").length, 47);

    const other = await h.user.slashCommand({ user: BOB, text: "claim gpu-b for 1h" });
    assert.match(String(other.ackPayload?.text), /^You hold gpu-b until/, "another project is not limited");
    assert.equal(h.state.claims.activeOf(BOB, h.clock.now())[0]?.project, "vision");

    const waits = await h.user.slashCommand({ user: EVE, text: "claim 1 for 1h --wait" });
    const waitText = String(waits.ackPayload?.text);
    assert.match(
      waitText,
      /^Project `nlp` may hold at most 3 GPUs at once and holds 3: this waits until it may hold 1 more\.\n/,
    );
    assert.equal(h.state.queue.waiting()[0]?.user, EVE);
    await h.user.event({ type: "app_home_opened", user: EVE });
    await h.settle();
    assert.match(
      shown(h.emulator.home(EVE)?.view.blocks as unknown[]),
      /\*Your place in line\*\n1\. 1 GPU: .* \(project nlp, priority 0\)/,
    );
    assert.equal(h.state.claims.activeOf(EVE, h.clock.now()).length, 0, "the grant pass keeps to the quota");
    const winner = held[0]!.user;
    await h.user.slashCommand({ user: winner, text: "release" });
    await h.settle();
    assert.equal(h.state.claims.activeOf(EVE, h.clock.now()).length, 1, "granted once the project has room");
    assert.equal(h.state.claims.activeOf(EVE, h.clock.now())[0]?.project, "nlp");
    await h.settle();
  });
});

function host(name: string, atMs: number, utilPcts: number[]): HostObservation {
  return {
    host: name,
    source: "ssh",
    atMs,
    ok: true,
    gpus: utilPcts.map((utilPct, index) => gpu(index, { utilPct, powerW: 100 })),
    sessions: [],
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  };
}

describe("/gpu report project over the real Bolt app", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("the month per project, the unattributed part, the CSV in the asker's DM", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], cost_per_hour: 2 } },
        { projects: { nlp: { members: [ALICE] } } },
      ),
    });
    // Saturday 3 and Sunday 4 January in Berlin: GPU 0 busy under alice's claim, GPU 1 idle, unclaimed.
    const from = Date.UTC(2026, 0, 2, 23);
    const to = Date.UTC(2026, 0, 4, 23);
    for (let atMs = from; atMs < to; atMs += MINUTE_MS)
      h.metrics.writeCycle([host("gpu-a", atMs, [80, 0])], atMs);
    while (!h.metrics.rollup(h.clock.now(), 10, 1000).complete) {}
    const claim = h.state.claims.add({
      host: "gpu-a",
      gpuIndex: 0,
      user: ALICE,
      fromMs: from,
      untilMs: to,
      note: "",
      project: "nlp",
    });
    h.state.claims.release([claim.id], to, ALICE, "released");

    const reply = await h.user.slashCommand({ user: EVE, text: "report project 2026-01" });
    assert.equal(reply.ackPayload?.response_type, "ephemeral");
    assert.equal(
      reply.ackPayload?.text,
      [
        "Cost by project, 2026-01 (2026-01-03 to 2026-01-04, Europe/Berlin; the ledger: €96.00)",
        "• nlp: €48.00 (50 %): used €48.00, idle GPUs held €0.00; 48.0 GPU-hours claimed, 48.0 busy; waited 0.0 h in the queue",
        "• unattributed: €48.00 (50 %): used €0.00, idle GPUs held €48.00; 0.0 GPU-hours claimed, 0.0 busy; waited 0.0 h in the queue",
      ].join("\n"),
    );
    await h.emulator.waitFor(() => h.emulator.files()[0]?.completed === true, "the CSV upload");
    const [file] = h.emulator.files();
    assert.equal(file?.filename, "gpu-cost-by-project_2026-01.csv");
    assert.deepEqual(file?.bytes?.toString("utf8").split("\r\n").slice(1, 3), [
      "nlp,48.000,48.000,48.00,0.00,48.00,0.5000,0.000,EUR",
      "unattributed,0.000,0.000,0.00,48.00,48.00,0.5000,0.000,EUR",
    ]);
    const bad = await h.user.slashCommand({ user: EVE, text: "report project january" });
    assert.match(
      String(bad.ackPayload?.text),
      /^`january` is not a month: use YYYY-MM, e\.g\. `report project 2026-11`\./,
    );
  });
});
