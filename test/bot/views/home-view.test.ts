import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HOME_MAX_BLOCKS, homeView } from "../../../src/bot/views/status/home-view.ts";
import { translator } from "../../../src/messages/translator.ts";
import { viewProblems } from "../../../src/playground/slack-emulator/validate-blocks.ts";
import { HOUR_MS } from "../../../src/shared/clock.ts";
import type { HostSummary } from "../../../src/usecases/fleet/read-fleet-status.ts";
import type { HomeModel } from "../../../src/usecases/fleet/read-home.ts";

const T0 = Date.UTC(2026, 0, 5, 9, 0);
const EN = translator({ language: "en", timeZone: "Europe/Berlin", currency: "USD" });

function host(i: number): HomeModel["hosts"][number] {
  const name = `node-${String(i).padStart(4, "0")}`;
  const idle = i % 3 === 0;
  const summary: HostSummary = {
    host: name,
    status: idle ? "idle" : "busy",
    gpus: 8,
    busyGpus: idle ? 0 : 1,
    suspectGpus: [],
    meanUtilPct: idle ? 0 : 12,
    idleSinceMs: idle ? T0 - 2 * HOUR_MS : null,
    lastOkAtMs: T0,
    problem: null,
    activeUsers: [],
    claims: [],
    unclaimedBusy: idle ? [] : [{ index: 0, utilPct: 97, owners: ["someone-with-a-long-login-name"] }],
    snooze: null,
    openAlert: null,
  };
  const gpus = Array.from({ length: 8 }, (_, index) => ({
    host: name,
    index,
    model: "NVIDIA H100 80GB HBM3",
    state: (idle || index > 0 ? "idle" : "busy") as "idle" | "busy",
    utilPct: idle || index > 0 ? 0 : 97,
    reading: null,
  }));
  return { summary, gpus };
}

function model(hosts: number, claims: number): HomeModel {
  return {
    user: "U0BOB",
    nowMs: T0,
    zone: "Europe/Berlin",
    notice: null,
    mine: Array.from({ length: claims }, (_, i) => ({
      group: {
        user: "U0BOB",
        host: `node-${String(i).padStart(4, "0")}`,
        gpus: [0, 1],
        fromMs: T0,
        untilMs: T0 + 4 * HOUR_MS,
        note: "a note that is not short at all, to use up characters",
        claimIds: [2 * i + 1, 2 * i + 2],
        remindedAtMs: null,
        nudgedAtMs: null,
        stillUsingAtMs: null,
      },
      gpus: [],
    })),
    warden: "U0CAROL",
    hosts: Array.from({ length: hosts }, (_, i) => host(i)),
    rules: {
      defaultMs: 8 * HOUR_MS,
      maxMs: 72 * HOUR_MS,
      reminderMs: HOUR_MS,
      nudgeMs: 2 * HOUR_MS,
      releaseMs: 4 * HOUR_MS,
    },
  };
}

function texts(blocks: unknown[]): string {
  return JSON.stringify(blocks);
}

describe("the App Home view", () => {
  for (const [hosts, claims] of [
    [0, 0],
    [200, 3],
    [2000, 25],
  ] as const) {
    test(`${hosts} hosts and ${claims} claims: within Slack's view limits, every host listed or counted`, () => {
      const view = homeView(EN, model(hosts, claims), "/gpu");
      assert.deepEqual(viewProblems(view, "home"), []);
      assert.ok(view.blocks.length <= HOME_MAX_BLOCKS, `${view.blocks.length} blocks`);
      assert.ok(Buffer.byteLength(JSON.stringify(view)) < 250_000);
      const listed = (texts(view.blocks).match(/• \*node-/g) ?? []).length;
      const more = Number(/…and (\d+) more hosts/.exec(texts(view.blocks))?.[1] ?? 0);
      assert.equal(listed + more, hosts);
      const claimButtons = (texts(view.blocks).match(/"claim_release"/g) ?? []).length;
      assert.equal(claimButtons, Math.min(claims, 10));
      if (claims > 10) assert.match(texts(view.blocks), /…and 15 more: `\/gpu mine` lists them all\./);
    });
  }

  test("200 hosts are all listed, not summarised", () => {
    const view = homeView(EN, model(200, 0), "/gpu");
    assert.equal((texts(view.blocks).match(/• \*node-/g) ?? []).length, 200);
    assert.match(
      texts(view.blocks),
      /• \*node-0001\* in use · util `97 0 0 0 0 0 0 0` % · GPU 0 in use, unclaimed \(someone-with-a-long-login-name\)/,
    );
    assert.match(texts(view.blocks), /• \*node-0000\* idle since 08:00 \(2 h\) · util `0 0 0 0 0 0 0 0` %/);
  });
});
