import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createReaders } from "../../src/bot/readers.ts";
import { hygieneWords } from "../../src/bot/views/warden/hygiene-messages.ts";
import { configSchema } from "../../src/config/schema.ts";
import type { HygieneCheck, HygieneFacts, HygieneProbe } from "../../src/domain/hygiene.ts";
import type { GpuHourRollup } from "../../src/domain/metrics.ts";
import { DAY_MS, ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createHygieneStore } from "../../src/store/hygiene-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { hygienePolicy } from "../../src/usecases/warden/check-hygiene.ts";
import { postHygieneSection, reviewHygiene } from "../../src/usecases/warden/review-hygiene.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-review-hygiene-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A slot's commit with nothing else to record. */
function runNow(effect: () => void): boolean {
  effect();
  return true;
}

/** A fleet whose disks and sshd the test sets; `hung` hosts never answer. */
function fleet() {
  const state = { rootPct: 91, hung: new Set<string>(), clientAlive: null as number | null };
  const facts = (check: HygieneCheck): HygieneFacts => {
    switch (check) {
      case "sshd":
        return {
          check,
          facts: { via: "sshd -T", clientAliveSeconds: state.clientAlive, mainFile: "/etc/ssh/sshd_config" },
        };
      case "disk":
        return { check, facts: [{ mount: "/", usedPct: state.rootPct, availableKiB: 20 * 2 ** 20 }] };
      case "docker":
      case "containers":
        return { check, facts: { present: false } };
      case "sessions":
        return { check, facts: [] };
    }
  };
  const probe: HygieneProbe = {
    hosts: ["gpu-a", "gpu-b"],
    probe: async (host, check) =>
      state.hung.has(host)
        ? { ok: false, why: { cause: "timeout", seconds: 20 } }
        : { ok: true, facts: facts(check) },
  };
  return { state, probe };
}

/** gpu-a (a cloud host at 8 per hour, 4 GPUs) ran GPU 0 for 2 h from 10:00 UTC two days before the summary, then idled. */
function rollups(fromMs: number, toMs: number): GpuHourRollup[] {
  const saturday = Math.floor((toMs - 2 * DAY_MS) / DAY_MS) * DAY_MS + 10 * 3_600_000;
  const hour = (offset: number, busy: number, index = 0): GpuHourRollup => ({
    host: "gpu-a",
    index,
    uuid: null,
    hourMs: saturday + offset * 3_600_000,
    utilMeanPct: null,
    utilMaxPct: null,
    busyMinutes: busy,
    idleMinutes: 60 - busy,
    unknownMinutes: 0,
    memMeanMiB: null,
    memMaxMiB: null,
    energyWh: 300,
  });
  const all = [hour(0, 60), hour(1, 55), hour(2, 0), hour(0, 0, 1), hour(0, 0, 2), hour(0, 0, 3)];
  return all.filter((r) => r.hourMs >= fromMs && r.hourMs < toMs);
}

function rig() {
  const db = openDatabase(join(dir, `${Math.random().toString(36).slice(2)}.db`));
  const clock = new ManualClock(Date.UTC(2026, 11, 7, 8, 30));
  const sent: { channel: string; text: string }[] = [];
  const { state, probe } = fleet();
  const config = configSchema.parse({
    hosts: { "gpu-a": { cost_per_hour: 8 } },
    costs: {
      electricity: {
        price_per_kwh: 0.3,
        windows: [{ name: "valley", from: "23:00", to: "07:00", price_per_kwh: 0.1 }],
      },
    },
  });
  const deps = {
    check: { probe, policy: hygienePolicy(config), clock, checkTimeoutMs: 20_000, concurrency: 4 },
    hygiene: createHygieneStore(db),
    notifier: {
      send: (_method: string, args: Record<string, unknown>) =>
        sent.push(args as { channel: string; text: string }),
    },
    warden: { current: () => "U0WARDEN" },
    hygieneWords: hygieneWords(createReaders(config.team)),
    logger: silentLogger,
  };
  let slots = 0;
  const week = async () => {
    await reviewHygiene(deps, { atMs: clock.now(), commit: runNow });
    clock.advance(7 * DAY_MS);
    slots++;
    const out = sent.splice(0);
    return out.map((m) => `${m.channel}\n${m.text}`);
  };
  const summary = () => {
    postHygieneSection(
      { ...deps, channel: "C0TEAM", config, metrics: { rollupsBetween: rollups } },
      { atMs: clock.now(), commit: runNow },
    );
    return sent.splice(0).map((m) => `${m.channel}\n${m.text}`);
  };
  return { state, week, summary, db, slots };
}

describe("hygiene findings reach the warden and the summary once until they change", () => {
  test("first week: the warden gets each finding; the next week nothing; a change is shown again", async () => {
    const { state, week, summary } = rig();
    const first = await week();
    assert.equal(first.length, 1);
    assert.equal(
      first[0],
      [
        "U0WARDEN",
        "Host hygiene: new or changed since last time",
        "*gpu-a*",
        "• disks: / is 91% full (20 GiB free)",
        "• sshd: ClientAliveInterval is not set, so dead SSH sessions never time out and make the host look in use: add the line 'ClientAliveInterval 300' to /etc/ssh/sshd_config, above any Match block",
        "*gpu-b*",
        "• disks: / is 91% full (20 GiB free)",
        "• sshd: ClientAliveInterval is not set, so dead SSH sessions never time out and make the host look in use: add the line 'ClientAliveInterval 300' to /etc/ssh/sshd_config, above any Match block",
      ].join("\n"),
    );
    assert.deepEqual(await week(), [], "the same findings are not shown every week");

    state.rootPct = 97;
    state.clientAlive = 300;
    const changed = await week();
    assert.equal(changed.length, 1);
    assert.match(changed[0]!, /• disks: \/ is 97% full/);
    assert.doesNotMatch(changed[0]!, /sshd/, "fixed: gone, and not shown as fine");

    const section = summary();
    assert.equal(section.length, 1);
    assert.match(section[0]!, /^C0TEAM\nHost hygiene\n\*gpu-a\*\n• disks: \/ is 97% full/);
    // 2 h × 8 / 4 GPUs = €4 on demand, 60 % off; 0.6 kWh started at 10:00 (0.30) instead of 0.10.
    assert.match(
      section[0]!,
      /\nCheaper ways to run the same work\n• 1 run of at most 4 h ended cleanly: on spot instances they would have cost €2 less \(60% off €4\)\n• 1 batch run started in peak hours: waiting for the valley hours would have saved €0\.12 of electricity$/,
    );
    assert.doesNotMatch(summary().join("\n"), /Host hygiene/, "the summary shows each finding once too");
  });

  test("a host that stops answering is 'could not check', and its findings are kept, not cleared", async () => {
    const { state, week, summary } = rig();
    await week();
    summary();
    state.hung.add("gpu-b");
    state.rootPct = 50;
    const lines = (await week())[0]!.split("\n");
    assert.deepEqual(
      lines.filter((l) => l.startsWith("*") || l.includes("gpu-b") || l.includes("could not")).slice(0, 2),
      ["*gpu-b*", "• containers: could not check: no answer within 20 s"],
    );
    assert.ok(!lines.some((l) => /nothing to fix|fine/.test(l)));
    const section = summary()[0]!;
    assert.match(section, /\*gpu-b\*\n• containers: could not check/);
    assert.doesNotMatch(section, /gpu-b\*\n[^*]*disks: \/ is 91%/, "the old finding was already shown");
  });
});
