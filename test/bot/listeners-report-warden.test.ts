import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { createSlotRunner } from "../../src/jobs/slot-runner.ts";
import { wardenAnnounceJob } from "../../src/jobs/warden-announce-job.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createJobRunStore } from "../../src/store/job-run-store.ts";
import { failedAt } from "../checks/builders.ts";
import { ALICE, BOB, BotHarness, CAROL, CHANNEL, DAVE, EVE, standardConfig } from "../helpers/bot-harness.ts";
import { gpu } from "../store/store-fixtures.ts";

function host(name: string, atMs: number, utilPcts: number[], powerW: number | null): HostObservation {
  return {
    host: name,
    source: "ssh",
    atMs,
    ok: true,
    gpus: utilPcts.map((utilPct, index) => gpu(index, { utilPct, powerW })),
    sessions: [],
    cpuLoad1: 0,
    cpuUtilPct: 0,
    containers: [],
  };
}

/** Writes one cycle a minute in `[fromMs, toMs)` straight into the store, then rolls up to the clock. */
function history(h: BotHarness, fromMs: number, toMs: number, observe: (atMs: number) => HostObservation[]) {
  for (let atMs = fromMs; atMs < toMs; atMs += MINUTE_MS) h.metrics.writeCycle(observe(atMs), atMs);
  while (!h.metrics.rollup(h.clock.now(), 10, 1000).complete) {}
}

interface Block {
  type: string;
  text?: { text: string };
  elements?: { text?: string }[];
}

/** What a person reads in a message's blocks, one line per block. */
function blockTexts(blocks: unknown[] | undefined): string[] {
  return (blocks ?? []).map((block) => {
    const b = block as Block;
    return b.text?.text ?? (b.elements ?? []).map((e) => e.text ?? "").join(" ");
  });
}

describe("/gpu report and /gpu warden over the real Bolt app", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(async () => {
    assert.deepEqual(h.emulator.failures(), [], "every delivery acked within 3 s");
    assert.deepEqual(h.emulator.internalErrors(), []);
    assert.deepEqual(h.problems(), []);
    await h.close();
  });

  test("/gpu report 2d: the ledger as an ephemeral summary, the CSV uploaded to the asker's DM", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], purchase_price: 8766, lifetime_months: 12 } },
        { costs: { electricity: { price_per_kwh: 0.5 } } },
      ),
    });
    // Saturday 3 and Sunday 4 January in Berlin: GPU 0 busy, GPU 1 idle, 100 W each.
    history(h, Date.UTC(2026, 0, 2, 23), Date.UTC(2026, 0, 4, 23), (atMs) => [
      host("gpu-a", atMs, [80, 0], 100),
    ]);
    const reply = await h.user.slashCommand({ user: EVE, text: "report 2d" });
    assert.equal(reply.ackPayload?.response_type, "ephemeral");
    assert.equal(
      reply.ackPayload?.text,
      "Cost ledger, last 2 days: cost €67.20, idle cost €33.60, real usage rate 50 %",
    );
    assert.deepEqual(blockTexts(reply.ackPayload?.blocks as unknown[]), [
      "*Cost ledger, last 2 days* (Sat, Jan 3, 2026 – Sun, Jan 4, 2026, Europe/Berlin)\n" +
        "Cost *€67.20*, idle cost *€33.60* (50 % of it). Real usage rate *50 %*: 48.0 busy of 96.0 GPU-hours on; " +
        "0.0 GPU-hours without data. Energy 9.6 kWh. Stopping the idle hours would have saved *€2.40* " +
        "(power, cloud price, upkeep per hour on; the write-off runs on).",
      "*Most idle cost*\n• *gpu-a*: €33.60 idle of €67.20, 50 % used",
      "*Real usage rate by month*\n• January 2026: 50 % (48.0 of 96.0 GPU-hours on)",
      "The CSV with every host and day comes to you as a DM.",
    ]);
    await h.emulator.waitFor(() => h.emulator.files()[0]?.completed === true, "the CSV upload");
    const [file] = h.emulator.files();
    assert.equal(file?.filename, "gpu-cost-ledger_2026-01-03_2026-01-04.csv");
    assert.equal(
      file?.bytes?.toString("utf8"),
      [
        "day,host,hours,on_hours,gpus,busy_gpu_hours,idle_gpu_hours,unknown_gpu_hours,usage_rate,energy_kwh,cost,idle_cost,capital,upkeep,energy_cost,rent,currency",
        "2026-01-03,gpu-a,24.000,24.000,2,24.000,24.000,0.000,0.5000,4.800,33.60,16.80,24.00,7.20,2.40,0.00,EUR",
        "2026-01-04,gpu-a,24.000,24.000,2,24.000,24.000,0.000,0.5000,4.800,33.60,16.80,24.00,7.20,2.40,0.00,EUR",
        "",
      ].join("\r\n"),
    );
    assert.deepEqual(
      h.emulator.dms(EVE).map((m) => m.text),
      ["GPU cost ledger 2026-01-03 to 2026-01-04 (Europe/Berlin, EUR): one row per host and day."],
      "the file is shared in Eve's DM with the bot, not in the channel",
    );
    assert.deepEqual(file?.channels, [h.emulator.dms(EVE)[0]?.channel]);
    assert.equal(h.emulator.channel(CHANNEL).messages.length, 0);
  });

  test("/gpu report says what is wrong with the days, and that the ledger is empty before the first day", async () => {
    h = await BotHarness.start({ transport: "http", config: standardConfig({}) });
    const bad = await h.user.slashCommand({ user: EVE, text: "report 500d" });
    assert.equal(
      bad.ackPayload?.text,
      "`500d` is not a number of days: use `1d` to `400d`, e.g. `30d`.\nRight form: `/gpu report [<days>d] | report project [<YYYY-MM>]` — e.g. `/gpu report 30d`",
    );
    const empty = await h.user.slashCommand({ user: EVE, text: "report" });
    assert.equal(
      empty.ackPayload?.text,
      "*Cost ledger, last 7 days*: no complete day in the ledger yet. It is written from the hourly rollups once a day (in Europe/Berlin) is over.",
    );
    assert.equal(h.emulator.files().length, 0);
  });

  test("/gpu warden shows, swaps and skips; the rotated warden is the one alerts and stops ask", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({}, { warden: { roster: [ALICE, BOB, CAROL] } }),
    });
    const ask = async (user: string, text: string) =>
      (await h.user.slashCommand({ user, text })).ackPayload?.text;
    assert.equal(
      await ask(EVE, "warden"),
      `🧭 Cost warden for January 2026: <@${ALICE}>. Next: <@${BOB}> (February 2026).`,
    );
    assert.equal(
      await ask(EVE, "warden skip"),
      `Only this month's cost warden (<@${ALICE}>) or an admin (<@${DAVE}>) can skip the turn.`,
    );
    assert.equal(
      await ask(ALICE, "warden skip"),
      `Done: <@${BOB}> is the cost warden for January 2026. <@${ALICE}> takes February 2026 instead. ` +
        "The channel is told, and the new warden gets the checklist.",
    );
    assert.equal(h.deps.warden.current(h.clock.now()), BOB);
    assert.equal(
      await ask(DAVE, `warden swap <@${CAROL}|carol>`),
      `Done: <@${CAROL}> is the cost warden for January 2026. <@${BOB}> takes March 2026 instead. ` +
        "The channel is told, and the new warden gets the checklist.",
    );
    assert.equal(h.deps.warden.current(h.clock.now()), CAROL);
    const unclear = await ask(DAVE, "warden swap @nobody");
    assert.match(String(unclear), /^I cannot tell who `@nobody` is: mention them/);
    const roster = await h.user.slashCommand({ user: EVE, text: "warden roster" });
    assert.deepEqual(blockTexts(roster.ackPayload?.blocks as unknown[]), [
      `*Roster, in order:* <@${ALICE}> → <@${BOB}> → <@${CAROL}>\n*Coming months:*\n` +
        `• January 2026: <@${CAROL}> _(swapped or skipped)_\n` +
        `• February 2026: <@${ALICE}> _(swapped or skipped)_\n` +
        `• March 2026: <@${BOB}> _(swapped or skipped)_\n` +
        `• April 2026: <@${ALICE}>`,
    ]);
    await h.settle();
    assert.deepEqual(
      h.emulator.channel(CHANNEL).messages.map((m) => m.text),
      [
        `🔁 <@${BOB}> is the cost warden for *January 2026* (<@${ALICE}> is away this month). <@${ALICE}> takes February 2026 instead.`,
        `🔁 <@${CAROL}> is the cost warden for *January 2026* (<@${DAVE}> swapped <@${BOB}>'s turn). <@${BOB}> takes March 2026 instead.`,
      ],
    );
    assert.match(h.emulator.dms(BOB)[0]?.text ?? "", /^🧭 You are the cost warden for January 2026: /);
    assert.match(h.emulator.dms(CAROL)[0]?.text ?? "", /^🧭 You are the cost warden for January 2026: /);
    assert.deepEqual(
      h.state.audit.byAction("warden-skip").map((e) => [e.actor, e.detail.from, e.detail.to]),
      [[ALICE, ALICE, BOB]],
    );
  });

  test("on the 1st: the new warden announced once with the checklist, caught up late after downtime", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        {
          "gpu-a": { owners: [ALICE], purchase_price: 8766, lifetime_months: 12 },
          "gpu-b": { owners: [ALICE] },
          "gpu-c": { cost_per_hour: 2 },
        },
        { warden: { roster: [ALICE, BOB, CAROL] } },
      ),
    });
    h.deps.pendingReclaims = {
      pending: () => [
        {
          host: "gpu-c",
          sinceMs: Date.UTC(2026, 0, 12, 9),
          decideByMs: Date.UTC(2026, 1, 2, 9),
          meanUtilPct: 8.4,
        },
      ],
    };
    // The last three days of January: gpu-a idle (no power readings), gpu-b idle, gpu-c busy.
    const fleet = (atMs: number) => [
      host("gpu-a", atMs, [0, 0], null),
      host("gpu-b", atMs, [0], null),
      host("gpu-c", atMs, [90], null),
    ];
    h.clock.set(Date.UTC(2026, 0, 31, 23, 45));
    history(h, Date.UTC(2026, 0, 28, 23), Date.UTC(2026, 0, 31, 23), fleet);
    // 1 February, 08:45–08:59 in Berlin: gpu-a idle, gpu-b not answering, gpu-c busy.
    h.clock.set(Date.UTC(2026, 1, 1, 7, 45));
    h.pollFor(15, (atMs) => [
      host("gpu-a", atMs, [0, 0], null),
      failedAt("gpu-b", atMs),
      host("gpu-c", atMs, [90], null),
    ]);
    while (!h.metrics.rollup(h.clock.now(), 10, 1000).complete) {}
    const runner = () =>
      createSlotRunner({
        jobs: [wardenAnnounceJob(h.deps)],
        store: createJobRunStore(h.db),
        clock: h.clock,
        logger: silentLogger,
      });
    h.clock.set(Date.UTC(2026, 1, 1, 8, 0, 20));
    await runner().tick();
    await runner().tick();
    await h.settle();
    const announced = h.emulator.channel(CHANNEL).messages.filter((m) => m.text.startsWith("🧭"));
    assert.deepEqual(
      announced.map((m) => m.text),
      [
        `🧭 <@${BOB}> is the cost warden for *February 2026*. Next: <@${CAROL}> (March 2026). ` +
          "Idle-machine escalations and reclaim decisions go to the warden this month.",
      ],
    );
    const [checklist, ...more] = h.emulator.dms(BOB);
    assert.equal(more.length, 0);
    assert.equal(
      checklist?.text,
      "🧭 You are the cost warden for February 2026: 1 idle host now, 1 pending reclaim decision, 1 host without data.",
    );
    assert.deepEqual(blockTexts(checklist?.blocks), [
      "🧭 You are the cost warden for February 2026",
      "This month the idle-machine escalations and reclaim decisions come to you. Your checklist:",
      "*1. Idle hosts now* (1)\n• *gpu-a* — idle since 08:45",
      "*2. Pending reclaim decisions* (1)\n• *gpu-c* — pending since Mon, Jan 12 10:00, 8 % mean utilisation; decide by Mon, Feb 2 10:00",
      "*3. Top idle cost in January 2026*\n• *gpu-a* — €93.60 (144.0 idle GPU-hours)\nFleet idle cost: €93.60 over 3 days in the ledger.",
      "*4. Hosts with no data* (1)\n• *gpu-b* — no data since Sat, Jan 31 23:59 (gpu-b: ssh timed out after 20 s)",
      "`/gpu status` for the fleet, `/gpu report 30d` for the ledger, `/gpu warden skip` if you are away. Times in Europe/Berlin.",
    ]);

    // Down from 28 February to 3 March: March's announcement is caught up once, marked late.
    h.clock.set(Date.UTC(2026, 2, 3, 12));
    await runner().tick();
    await runner().tick();
    await h.settle();
    assert.deepEqual(
      h.emulator
        .channel(CHANNEL)
        .messages.filter((m) => m.text.startsWith("🧭"))
        .map((m) => m.text)
        .slice(1),
      [
        `🧭 <@${CAROL}> is the cost warden for *March 2026*. Next: <@${ALICE}> (April 2026). ` +
          "Idle-machine escalations and reclaim decisions go to the warden this month. " +
          "_(Announced late: the bot was not running on the 1st.)_",
      ],
    );
    assert.equal(h.emulator.dms(CAROL).length, 1);
  });
});
