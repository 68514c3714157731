import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ledgerReportReply } from "../../../src/bot/views/ledger/report-ledger.ts";
import type { LedgerReport, LedgerTotals } from "../../../src/domain/ledger-report.ts";
import { translator } from "../../../src/messages/translator.ts";
import { blockProblems } from "../../../src/playground/slack-emulator/validate-blocks.ts";

const ZH = translator({ language: "zh-CN", timeZone: "Asia/Shanghai", currency: "CNY" });

const totals = (over: Partial<LedgerTotals> = {}): LedgerTotals => ({
  days: 2,
  onHours: 48,
  busyGpuHours: 48,
  idleGpuHours: 48,
  unknownGpuHours: 0,
  usageRate: 0.5,
  energyKWh: 9.6,
  cost: 6720,
  idleCost: 3360,
  idleSaving: 720,
  unpricedDays: 0,
  ...over,
});

const report: LedgerReport = {
  fromDay: "2026-01-03",
  toDay: "2026-01-04",
  requested: { fromDay: "2026-01-02", toDay: "2026-01-04" },
  ledger: { first: "2026-01-03", last: "2026-01-04" },
  readings: { fromMs: Date.UTC(2026, 0, 2, 16), toMs: Date.UTC(2026, 0, 5, 3) },
  timezone: "Asia/Shanghai",
  currency: "CNY",
  hosts: [{ host: "gpu-a", ...totals() }],
  months: [{ month: "2026-01", ...totals() }],
  total: totals(),
  rows: [],
};

describe("/gpu report in Chinese", () => {
  test("the ledger reads Chinese, money in ¥, days and months in Chinese", () => {
    const reply = ledgerReportReply(ZH, report, 2, "dm");
    assert.equal(reply.text, "成本账本，最近 2 天：成本 ¥6,720，闲置成本 ¥3,360，实际使用率 50 %");
    const text = (reply.blocks ?? [])
      .map((block) => JSON.stringify(block))
      .join("\n")
      .replaceAll("\u200b", "");
    assert.match(text, /\*成本账本，最近 2 天\* \(2026年1月3日周六 – 2026年1月4日周日，Asia\/Shanghai\)/);
    assert.match(text, /成本 \*¥6,720\*，闲置成本 \*¥3,360\*（占 50 %）。实际使用率 \*50 %\*/);
    assert.match(text, /若闲置时段停机，可省 \*¥720\*（电费、云价格、按开机小时计的维护费；折旧照付）。/);
    assert.match(text, /• \*gpu-a\*：¥6,720 中闲置 ¥3,360，使用率 50 %/);
    assert.match(text, /• 2026年1月：50 %（开机 96.0 GPU 小时中忙碌 48.0）/);
    assert.match(text, /从 2026年1月3日周六开始。 包含每台主机每天数据的 CSV 会私信发给你。/);
    assert.doesNotMatch(text, /Cost|idle|[€$]/);
    assert.deepEqual(blockProblems(reply.blocks ?? [], "message"), []);
  });
});
