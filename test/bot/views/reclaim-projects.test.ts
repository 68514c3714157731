import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  reclaimDecisionMessage,
  reclaimPendingMessage,
  renewalMessage,
} from "../../../src/bot/views/warden/reclaim-messages.ts";
import { projectsOnHost } from "../../../src/checks/host-projects.ts";
import type { ReclaimCase } from "../../../src/domain/reclaim-case.ts";
import { translator } from "../../../src/messages/translator.ts";
import { shownText } from "../../helpers/shown-blocks.ts";

const H = 3_600_000;
const T = Date.UTC(2026, 10, 30);
const EN = translator({ language: "en", timeZone: "UTC", currency: "EUR" });
const ZH = translator({ language: "zh-CN", timeZone: "UTC", currency: "EUR" });

const claim = (
  gpuIndex: number | null,
  project: string | null,
  fromMs: number,
  hours: number,
  host = "gpu-a",
) => ({
  host,
  gpuIndex,
  fromMs,
  untilMs: fromMs + hours * H,
  releasedAtMs: null,
  project,
});

describe("reclaim and do-not-renew cases name the projects that used the host", () => {
  const claims = [
    claim(0, "nlp", T - 10 * 24 * H, 20),
    claim(null, "vision", T - 5 * 24 * H, 2),
    claim(1, null, T - 2 * 24 * H, 3),
    claim(0, "rec", T - 40 * 24 * H, 100),
    claim(0, "other", T - 3 * 24 * H, 50, "gpu-b"),
  ];
  const usedBy = projectsOnHost(claims, "gpu-a", T - 30 * 24 * H, T, 8);

  it("counts claimed GPU-hours per project in the window (a whole host is all its GPUs), most first", () => {
    assert.deepEqual(usedBy, [
      { project: "nlp", gpuHours: 20 },
      { project: "vision", gpuHours: 16 },
      { project: null, gpuHours: 3 },
    ]);
  });

  it("the warden's pending and decision messages and the do-not-renew DM say them", () => {
    const entry: ReclaimCase = {
      id: 1,
      host: "gpu-a",
      state: "pending",
      startedAtMs: T,
      windowMeanPct: 4,
      observeUntilMs: T + 14 * 24 * H,
      dueAtMs: null,
      endedAtMs: null,
      decidedBy: null,
      detail: {},
    };
    const ctx = { timezone: "UTC", belowPct: 15, warden: "U0CAROL", usedBy };
    const line =
      "Claimed in the last 30 days by: nlp (20.0 GPU-hours), vision (16.0 GPU-hours), unattributed (3.0 GPU-hours).";
    assert.ok(shownText(reclaimPendingMessage(EN, entry, ctx).blocks).includes(line));
    assert.ok(shownText(reclaimDecisionMessage(EN, entry, ctx).blocks).includes(line));
    assert.ok(
      shownText(reclaimPendingMessage(ZH, entry, ctx).blocks).includes(
        "最近 30 天的认领方：nlp（20.0 GPU 小时），vision（16.0 GPU 小时），未归属（3.0 GPU 小时）。",
      ),
    );
    const renewal = renewalMessage(
      EN,
      [{ host: "gpu-a", currentUtilPct: 5, previousUtilPct: 8, usedBy }],
      20,
      "U0CAROL",
    );
    assert.ok(shownText(renewal.blocks).includes(line));
    const nobody = renewalMessage(
      EN,
      [{ host: "gpu-b", currentUtilPct: 5, previousUtilPct: 8, usedBy: [] }],
      20,
      "U0CAROL",
    );
    assert.ok(shownText(nobody.blocks).includes("Nobody claimed it in the last 30 days."));
  });
});
