import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { keepReplyText } from "../../src/bot/views/power/reply-keep.ts";
import { defaultCalendar } from "../../src/checks/working-hours.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { type KeepResult, keepHost, keepUntilMs } from "../../src/usecases/alerts/keep-host.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BOB, CAROL, DAVE, EVE, T0, UseCaseRig } from "../helpers/bot-harness.ts";

const iso = (ms: number) => new Date(ms).toISOString();

describe("keepUntilMs: 'until tomorrow' in the team's zone", () => {
  const tomorrow = { kind: "tomorrow" } as const;

  test("is the configured time on the next local day, across both DST changes", () => {
    const berlin = "Europe/Berlin";
    assert.equal(
      iso(keepUntilMs(tomorrow, Date.parse("2027-03-27T20:00:00Z"), berlin, "09:00")),
      "2027-03-28T07:00:00.000Z",
    );
    assert.equal(
      iso(keepUntilMs(tomorrow, Date.parse("2027-03-27T23:30:00Z"), berlin, "09:00")),
      "2027-03-29T07:00:00.000Z",
    );
    assert.equal(
      iso(keepUntilMs(tomorrow, Date.parse("2027-10-30T12:00:00Z"), berlin, "09:00")),
      "2027-10-31T08:00:00.000Z",
    );
    assert.equal(
      iso(keepUntilMs(tomorrow, Date.parse("2027-03-06T12:00:00Z"), "America/New_York", "09:00")),
      "2027-03-07T14:00:00.000Z",
    );
    assert.equal(
      iso(keepUntilMs(tomorrow, Date.parse("2027-03-13T12:00:00Z"), "America/New_York", "09:00")),
      "2027-03-14T13:00:00.000Z",
    );
  });

  test("a local time skipped by the clock change moves forward to the first that exists", () => {
    assert.equal(
      iso(keepUntilMs(tomorrow, Date.parse("2027-03-27T12:00:00Z"), "Europe/Berlin", "02:30")),
      "2027-03-28T01:30:00.000Z",
    );
  });

  test("with the team's calendar, it is the next working day: Friday and the weekend run to Monday, a holiday is skipped", () => {
    const calendar = { ...defaultCalendar("Europe/Berlin"), holidays: ["2026-01-12"] };
    const at = (nowIso: string) =>
      iso(keepUntilMs(tomorrow, Date.parse(nowIso), "Europe/Berlin", "09:00", calendar));
    assert.equal(at("2026-01-07T16:00:00Z"), "2026-01-08T08:00:00.000Z", "Wednesday: Thursday");
    assert.equal(
      at("2026-01-09T16:00:00Z"),
      "2026-01-13T08:00:00.000Z",
      "Friday: past the weekend and Monday's holiday",
    );
    assert.equal(at("2026-01-10T16:00:00Z"), "2026-01-13T08:00:00.000Z", "Saturday");
    assert.equal(at("2026-01-16T16:00:00Z"), "2026-01-19T08:00:00.000Z", "the next Friday: Monday");
  });

  test("a duration is just added", () => {
    assert.equal(
      keepUntilMs({ kind: "for", ms: 4 * HOUR_MS }, T0, "Europe/Berlin", "09:00"),
      T0 + 4 * HOUR_MS,
    );
  });
});

describe("keepHost", () => {
  let rig: UseCaseRig;
  afterEach(() => rig.close());

  /** What the person who asked reads (the team's language). */
  const said = (result: KeepResult, asker: string) => keepReplyText(rig.deps.readers.channel, result, asker);
  const start = (policy: Record<string, unknown> = {}) => {
    rig = new UseCaseRig({
      team: { timezone: "Europe/Berlin" },
      slack: { admins: [DAVE] },
      warden: { roster: [CAROL] },
      policy,
      hosts: { "gpu-a": { owners: [ALICE] }, inference: { owners: [ALICE], never_stop: true } },
    });
    rig.fleet.observe(observed("gpu-a", T0, [0, 0]));
  };

  test("the owner, a claimant, the warden and an admin may keep; anyone else is told who can", () => {
    start();
    rig.state.claims.add({
      host: "gpu-a",
      gpuIndex: 2,
      user: BOB,
      fromMs: T0,
      untilMs: T0 + HOUR_MS,
      note: "",
    });
    const refused = keepHost(rig.deps, { host: "gpu-a", actor: EVE, span: { kind: "for", ms: HOUR_MS } });
    assert.deepEqual(
      [refused.kind === "refused" && refused.reason, said(refused, EVE)],
      [
        "not-allowed",
        `Only the owner of gpu-a (<@${ALICE}>), its claimant (<@${BOB}>), the cost warden (<@${CAROL}>) or an admin (<@${DAVE}>) can keep it.`,
      ],
    );
    for (const actor of [ALICE, BOB, CAROL, DAVE]) {
      rig.clock.advance(5 * MINUTE_MS);
      const kept = keepHost(rig.deps, { host: "gpu-a", actor, span: { kind: "for", ms: HOUR_MS } });
      assert.equal(kept.kind, "kept", actor);
    }
    assert.deepEqual(
      rig.state.audit
        .forHost("gpu-a", 10)
        .map((entry) => [entry.actor, entry.action])
        .reverse(),
      [
        [EVE, "keep-refused"],
        [ALICE, "keep"],
        [BOB, "keep"],
        [CAROL, "keep"],
        [DAVE, "keep"],
      ],
    );
  });

  test("writes the snooze, notes it in the thread and resolves an open idle alert as kept", () => {
    start();
    const alert = rig.state.alerts.open({
      host: "gpu-a",
      kind: "idle",
      openedAtMs: T0,
      idleSinceMs: T0,
      channel: "C1",
    });
    const kept = keepHost(rig.deps, {
      host: "gpu-a",
      actor: ALICE,
      span: { kind: "tomorrow" },
      alertId: alert.alert.id,
    });
    assert.deepEqual(kept, {
      kind: "kept",
      host: "gpu-a",
      untilMs: Date.parse("2026-01-06T08:00:00Z"),
      nowMs: T0,
      capped: false,
      maxMs: rig.config.policy.max_keep_hours * HOUR_MS,
      already: false,
      byUser: ALICE,
    });
    assert.equal(
      said(kept, ALICE),
      "Kept gpu-a until tomorrow 09:00 (23 h): no idle alerts or automatic stop until then.",
    );
    assert.deepEqual(rig.state.snoozes.activeAt("gpu-a", T0), {
      host: "gpu-a",
      untilMs: Date.parse("2026-01-06T08:00:00Z"),
      byUser: ALICE,
      setAtMs: T0,
    });
    assert.deepEqual(rig.alerts.calls, [
      { kind: "thread", host: "gpu-a", text: `gpu-a kept by <@${ALICE}> until tomorrow 09:00 (23 h).` },
      { kind: "resolve", host: "gpu-a", resolution: "snoozed" },
    ]);
  });

  test("asking again for the same end (a double click, two people at once) changes nothing", () => {
    start();
    const span = { kind: "for", ms: HOUR_MS } as const;
    keepHost(rig.deps, { host: "gpu-a", actor: ALICE, span });
    rig.clock.advance(20_000);
    const again = keepHost(rig.deps, { host: "gpu-a", actor: DAVE, span });
    const mine = keepHost(rig.deps, { host: "gpu-a", actor: ALICE, span });
    assert.deepEqual(
      [again, mine].map(
        (kept, i) => kept.kind === "kept" && [kept.already, kept.untilMs - T0, said(kept, [DAVE, ALICE][i]!)],
      ),
      [
        [
          true,
          HOUR_MS,
          `gpu-a is already kept until 11:00 (by <@${ALICE}>): no idle alerts or automatic stop until then.`,
        ],
        [
          true,
          HOUR_MS,
          "gpu-a is already kept until 11:00 (by you): no idle alerts or automatic stop until then.",
        ],
      ],
    );
    assert.equal(rig.alerts.thread("gpu-a").length, 1);
    assert.deepEqual(
      rig.state.audit.forHost("gpu-a", 10).map((entry) => [entry.actor, entry.action]),
      [[ALICE, "keep"]],
    );
    rig.clock.advance(2 * MINUTE_MS);
    const later = keepHost(rig.deps, { host: "gpu-a", actor: DAVE, span });
    assert.equal(later.kind === "kept" && later.already, false, "two minutes later it extends the keep");
    assert.equal(rig.alerts.thread("gpu-a").length, 2);
  });

  test("a keep longer than policy.max_keep_hours is cut to it, and says so", () => {
    start({ max_keep_hours: 24 });
    const kept = keepHost(rig.deps, { host: "gpu-a", actor: ALICE, span: { kind: "for", ms: 48 * HOUR_MS } });
    assert.deepEqual(kept.kind === "kept" && [kept.untilMs - T0, kept.capped, said(kept, ALICE)], [
      24 * HOUR_MS,
      true,
      "Kept gpu-a until tomorrow 10:00 (1 d); capped at 1 d, the longest keep allowed: no idle alerts or automatic stop until then.",
    ]);
    assert.deepEqual(rig.alerts.calls, [
      {
        kind: "thread",
        host: "gpu-a",
        text: `gpu-a kept by <@${ALICE}> until tomorrow 10:00 (1 d); capped at 1 d, the longest keep allowed.`,
      },
    ]);
  });

  test("unknown hosts get a suggestion; never_stop hosts have nothing to keep", () => {
    start();
    assert.equal(
      said(keepHost(rig.deps, { host: "gpu-b", actor: ALICE, span: { kind: "tomorrow" } }), ALICE),
      "no host gpu-b; did you mean gpu-a?",
    );
    assert.equal(
      said(keepHost(rig.deps, { host: "inference", actor: ALICE, span: { kind: "tomorrow" } }), ALICE),
      "inference is marked `never_stop`: it is never alerted or stopped, so there is nothing to keep.",
    );
    assert.equal(rig.state.snoozes.allActiveAt(T0).length, 0);
  });
});
