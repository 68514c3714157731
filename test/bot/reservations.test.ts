import assert from "node:assert/strict";
import { join } from "node:path";
import { afterEach, describe, test } from "node:test";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CAROL,
  EVE,
  idleHost,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { shownText as shown } from "../helpers/shown-blocks.ts";

describe("the reservation grammar", () => {
  test("one day, a date, every weekday; list and cancel; what is wrong", () => {
    assert.deepEqual(parseCommand("reserve gpu-a:0-3 tomorrow 09:00-18:00 demo day"), {
      kind: "reserve",
      action: {
        kind: "make",
        slots: { host: "gpu-a", gpus: [0, 1, 2, 3] },
        when: { kind: "tomorrow" },
        startMin: 540,
        endMin: 1080,
        note: "demo day",
        project: null,
      },
    });
    assert.deepEqual(parseCommand("reserve gpu-a 2026-12-10 9:30-24:00").kind, "reserve");
    assert.deepEqual(parseCommand("reserve gpu-a every weekday 09:00-18:00"), {
      kind: "reserve",
      action: {
        kind: "make",
        slots: { host: "gpu-a", gpus: null },
        when: { kind: "every", weekdays: [1, 2, 3, 4, 5] },
        startMin: 540,
        endMin: 1080,
        note: "",
        project: null,
      },
    });
    assert.deepEqual(parseCommand("reserve gpu-a every mon,wed 08:00-12:00 project=Vision sft"), {
      kind: "reserve",
      action: {
        kind: "make",
        slots: { host: "gpu-a", gpus: null },
        when: { kind: "every", weekdays: [1, 3] },
        startMin: 480,
        endMin: 720,
        note: "sft",
        project: "vision",
      },
    });
    assert.deepEqual(parseCommand("reserve list"), { kind: "reserve", action: { kind: "list" } });
    assert.deepEqual(parseCommand("reserve cancel 12"), {
      kind: "reserve",
      action: { kind: "cancel", id: 12 },
    });
    assert.deepEqual(parseCommand("reserve gpu-a 2026-02-30 09:00-18:00"), {
      kind: "reserve",
      action: { kind: "invalid", problem: { kind: "when", text: "2026-02-30" } },
    });
    assert.deepEqual(parseCommand("reserve gpu-a today 18:00-09:00"), {
      kind: "reserve",
      action: { kind: "invalid", problem: { kind: "hours", text: "18:00-09:00" } },
    });
  });
});

describe("reservations over the real Bolt app (Socket Mode)", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("reserve, overlap refused naming the holder, list, cancel; audited; kept in the store", async () => {
    h = await BotHarness.start({ transport: "socket", config: standardConfig({ "gpu-a": {} }) });
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    const made = await h.user.slashCommand({
      user: ALICE,
      text: "reserve gpu-a:0-3 tomorrow 09:00-18:00 demo",
    });
    assert.equal(
      made.ackPayload?.text,
      "Reserved gpu-a:0-3 on Tue, Jan 6, 09:00–18:00 (Europe/Berlin) as #1 (demo).",
    );
    const refused = await h.user.slashCommand({ user: BOB, text: "reserve gpu-a:2 2026-01-06 17:00-20:00" });
    assert.equal(
      refused.ackPayload?.text,
      `gpu-a:0-3 is already reserved by <@${ALICE}> on Tue, Jan 6, 09:00–18:00, next Jan 6, 09:00 (#1): pick another window, or ask them.`,
    );
    const other = await h.user.slashCommand({
      user: BOB,
      text: "reserve gpu-a:2 2026-01-06 18:00-20:00 eval",
    });
    assert.equal(
      other.ackPayload?.text,
      "Reserved gpu-a:2 on Tue, Jan 6, 18:00–20:00 (Europe/Berlin) as #2 (eval).",
    );
    const list = await h.user.slashCommand({ user: CAROL, text: "reserve list" });
    assert.equal(
      shown(list.ackPayload?.blocks as unknown[]),
      `*Reservations (2)*\n• #1 *gpu-a:0-3*: <@${ALICE}> on Tue, Jan 6, 09:00–18:00 · next Jan 6, 09:00 (demo)\n` +
        `• #2 *gpu-a:2*: <@${BOB}> on Tue, Jan 6, 18:00–20:00 · next Jan 6, 18:00 (eval)\n` +
        "`/gpu reserve cancel <id>` cancels one of yours.",
    );
    const notYours = await h.user.slashCommand({ user: BOB, text: "reserve cancel 1" });
    assert.equal(
      notYours.ackPayload?.text,
      `Reservation #1 is <@${ALICE}>'s: only they or an admin may cancel it.`,
    );
    const cancelled = await h.user.slashCommand({ user: ALICE, text: "reserve cancel 1" });
    assert.equal(
      cancelled.ackPayload?.text,
      "Cancelled reservation #1: gpu-a:0-3 on Tue, Jan 6, 09:00–18:00.",
    );
    const project = await h.user.slashCommand({
      user: ALICE,
      text: "reserve gpu-a:0 2026-01-07 09:00-18:00 project=vision",
    });
    assert.equal(
      project.ackPayload?.text,
      "You are not a member of project vision, so you cannot reserve for it.",
    );
    const bad = await h.user.slashCommand({ user: ALICE, text: "reserve gpu-a:0 friday 09:00-18:00" });
    assert.match(
      String(bad.ackPayload?.text),
      /^`friday` is not a day: use `today`, `tomorrow`, `2026-12-10`, `every weekday`, `every day` or `every mon,wed`\.\nRight form: `\/gpu reserve /,
    );
    assert.deepEqual(
      ["reserve", "reserve-refused", "reserve-cancel"].map((action) => h.state.audit.byAction(action).length),
      [2, 1, 1],
    );
    const again = openDatabase(join(h.dir, "gpu-warden.db"));
    assert.deepEqual(
      createBotStateStore(again)
        .reservations.live()
        .map((reservation) => [reservation.id, reservation.user, reservation.note]),
      [[2, BOB, "eval"]],
    );
    again.close();
  });

  test("a claim running into a reservation is cut; inside the window only the holder may claim; status shows it", async () => {
    h = await BotHarness.start({ transport: "socket", config: standardConfig({ "gpu-a": {} }) });
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: ALICE, text: "reserve gpu-a:0,1 today 12:00-14:00 train" });
    const cut = await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0 for 4h" });
    assert.equal(
      cut.ackPayload?.text,
      `You hold gpu-a:0 until 12:00 (1 h 59 min). Cut to end at 12:00: gpu-a:0,1 is reserved from then by <@${ALICE}> (#1).`,
    );
    const extend = await h.user.slashCommand({ user: BOB, text: "extend gpu-a:0 4h" });
    assert.equal(
      extend.ackPayload?.text,
      `gpu-a:0 is yours until 12:00. Cut to end at 12:00: gpu-a:0,1 is reserved from then by <@${ALICE}> (#1).`,
    );
    const status = await h.user.slashCommand({ user: CAROL, text: "status" });
    assert.match(
      shown(status.ackPayload?.blocks as unknown[]),
      new RegExp(
        `\\*Reservations\\*\\n• \\*gpu-a:0,1\\*: reserved from Jan 5, 12:00 by <@${ALICE}> \\(#1\\)$`,
      ),
    );
    h.pollFor(150, allHosts(idleHost("gpu-a")));
    const refused = await h.user.slashCommand({ user: BOB, text: "claim gpu-a:1 for 1h" });
    assert.equal(
      refused.ackPayload?.text,
      `gpu-a:0,1 is reserved for <@${ALICE}> until 14:00 (#1): only they can claim it now.`,
    );
    const hers = await h.user.slashCommand({ user: ALICE, text: "claim gpu-a:1 for 1h" });
    assert.equal(hers.ackPayload?.text, "You hold gpu-a:1 until 13:31 (1 h).");
    const any = await h.user.slashCommand({ user: CAROL, text: "claim 2 for 1h" });
    assert.equal(any.ackPayload?.text, "You hold gpu-a:2,3 (H100 80GB HBM3) until 13:31 (1 h).");
    const host = await h.user.slashCommand({ user: CAROL, text: "status gpu-a" });
    assert.match(
      shown(host.ackPayload?.blocks as unknown[]),
      new RegExp(
        `\\n\\*Reservations\\*\\n• \\*gpu-a:0,1\\*: reserved now by <@${ALICE}> until 14:00 \\(#1\\)$`,
      ),
    );
    assert.equal(h.state.audit.byAction("claim-reserved").length, 1);
    assert.deepEqual(h.state.audit.byAction("claim")[0]?.detail, {
      ...h.state.audit.byAction("claim")[0]?.detail,
      cutForReservation: 1,
    });
  });

  test("a host reserved within the hour is not stopped automatically, and the alert says whose; App Home lists it", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], stop: "script", auto_stop: { after_minutes: 30 } } },
        {
          reservations: [
            { user: BOB, gpus: "gpu-a:0-1", every: "weekdays", from: "11:00", to: "18:00", note: "sft" },
          ],
        },
      ),
    });
    h.pollFor(6, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.equal(h.state.alerts.openFor("gpu-a", "idle")?.autoStopAtMs !== null, true);
    h.pollFor(31, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), []);
    const alert = shown(h.alertMessage("gpu-a").blocks as unknown[]);
    assert.match(
      alert,
      new RegExp(`⏳ Reserved from 11:00 by <@${BOB}>: this host is not stopped automatically\\.`),
    );
    assert.doesNotMatch(alert, /Stopping at/);
    const cut = await h.user.slashCommand({ user: CAROL, text: "claim gpu-a:1 for 1h" });
    assert.equal(
      cut.ackPayload?.text,
      `You hold gpu-a:1 until 11:00 (23 min). Cut to end at 11:00: gpu-a:0,1 is reserved from then by <@${BOB}> (#-1).`,
    );
    h.pollFor(25, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), []);
    const refused = await h.user.slashCommand({ user: CAROL, text: "claim gpu-a:1 for 1h" });
    assert.equal(
      refused.ackPayload?.text,
      `gpu-a:0,1 is reserved for <@${BOB}> until 18:00 (#-1): only they can claim it now.`,
    );
    const cancel = await h.user.slashCommand({ user: BOB, text: "reserve cancel -1" });
    assert.equal(
      cancel.ackPayload?.text,
      "Reservation #-1 is set in the config (`reservations:`): change it there.",
    );
    await h.user.event({ type: "app_home_opened", user: BOB });
    await h.settle();
    assert.match(
      shown(h.emulator.home(BOB)?.view.blocks as unknown[]),
      new RegExp(
        `\\*Your reservations \\(1\\)\\*\\n• #-1 \\*gpu-a:0,1\\*: <@${BOB}> every weekday, 11:00–18:00 · now until 18:00 \\(sft\\)`,
      ),
    );
  });

  test("a grant from the waiting list is cut to end before a reservation window", async () => {
    h = await BotHarness.start({ transport: "socket", config: standardConfig({ "gpu-a": {} }) });
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: ALICE, text: "reserve gpu-a:0 today 12:00-14:00" });
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 1h" });
    await h.user.slashCommand({ user: EVE, text: "claim gpu-a:0 for 4h --wait" });
    await h.user.slashCommand({ user: BOB, text: "release" });
    await h.settle();
    assert.deepEqual(h.dmTexts(EVE), ["gpu-a:0 is yours until 12:00"]);
  });

  test("project=<name>: during the window the project's members may claim, others are refused", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": {} }, { projects: { vision: { members: [ALICE, BOB] } } }),
    });
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    const made = await h.user.slashCommand({
      user: ALICE,
      text: "reserve gpu-a today 10:00-14:00 project=vision demo",
    });
    assert.equal(
      made.ackPayload?.text,
      "Reserved gpu-a on Mon, Jan 5, 10:00–14:00 (Europe/Berlin) as #1 (demo).",
    );
    const member = await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0 for 1h" });
    assert.equal(member.ackPayload?.text, "You hold gpu-a:0 until 11:01 (1 h).");
    const other = await h.user.slashCommand({ user: CAROL, text: "claim gpu-a:1 for 1h" });
    assert.equal(
      other.ackPayload?.text,
      `gpu-a is reserved for <@${ALICE}> (vision) until 14:00 (#1): only they can claim it now.`,
    );
  });
});
