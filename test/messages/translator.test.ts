import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatMoney } from "../../src/messages/formatters.ts";
import { languageFor } from "../../src/messages/languages.ts";
import { translator, translatorFor } from "../../src/messages/translator.ts";

const en = (currency = "EUR", timeZone = "UTC") => translator({ language: "en", timeZone, currency });
const zh = (currency = "CNY", timeZone = "Asia/Shanghai") =>
  translator({ language: "zh-CN", timeZone, currency });

describe("translator", () => {
  test("plurals: one and other in English, one form in Chinese", () => {
    assert.equal(en().t("common.hosts", { count: 1 }), "1 host");
    assert.equal(en().t("common.hosts", { count: 125 }), "125 hosts");
    assert.equal(en().t("common.gpus", { count: 1000 }), "1,000 GPUs");
    assert.equal(en().t("duration.long", { hours: 1 }), "1 hour");
    assert.equal(en().t("duration.long", { hours: 3 }), "3 hours");
    assert.equal(zh().t("common.hosts", { count: 1 }), "1 台主机");
    assert.equal(zh().t("common.hosts", { count: 125 }), "125 台主机");
    assert.equal(en().t("chart.legend.others", { count: 1 }), "1 other host");
    assert.equal(en().t("chart.legend.others", { count: 117 }), "117 other hosts");
    assert.equal(zh().t("chart.legend.others", { count: 117 }), "其他 117 台主机");
  });

  test("money in the team currency, in both languages", () => {
    assert.equal(en("EUR").t("common.money", { amount: 12_345.6 }), "€12,346");
    assert.equal(en("USD").t("common.money", { amount: 12_345.6 }), "$12,346");
    assert.equal(en("CNY").t("common.money", { amount: 12_345.6 }), "CN¥12,346");
    assert.equal(zh("CNY").t("common.money", { amount: 12_345.6 }), "¥12,346");
    assert.equal(zh("EUR").t("common.money", { amount: 12_345.6 }), "€12,346");
    assert.equal(zh("USD").t("common.money", { amount: 12_345.6 }), "US$12,346");
    assert.equal(en("EUR").t("common.moneyCents", { amount: 3.5 }), "€3.50");
    assert.equal(zh("CNY").t("common.moneyCents", { amount: 900 }), "¥900.00");
    assert.equal(en("EUR").money(12.5), "€12.50", "cents under 100");
    assert.equal(en("EUR").money(1234.4), "€1,234", "whole units from 100");
    assert.equal(zh("CNY").money(1234.4, { symbol: false }), "1,234");
    assert.equal(formatMoney("en", 7, "XYZ"), "XYZ\u00a07.00", "a code without a sign");
  });

  test("numbers and percentages", () => {
    assert.equal(en().t("common.pct", { ratio: 0.423 }), "42%");
    assert.equal(zh().t("common.pct", { ratio: 0.423 }), "42%");
    assert.equal(en().number(1234.56, 1), "1,234.6");
    assert.equal(en().t("common.gpuHours", { hours: 1 }), "1 GPU-hour");
    assert.equal(zh().t("common.gpuHours", { hours: 2.5 }), "2.5 GPU 小时");
  });

  test("durations in both languages", () => {
    const min = 60_000;
    assert.equal(en().duration(0), "0 min");
    assert.equal(en().duration(35 * min), "35 min");
    assert.equal(en().duration(125 * min), "2 h 5 min");
    assert.equal(en().duration(180 * min), "3 h");
    assert.equal(en().duration((3 * 24 + 4) * 60 * min), "3 d 4 h");
    assert.equal(en().duration(2 * 24 * 60 * min), "2 d");
    assert.equal(zh().duration(35 * min), "35 分钟");
    assert.equal(zh().duration(125 * min), "2 小时 5 分钟");
    assert.equal(zh().duration((3 * 24 + 4) * 60 * min), "3 天 4 小时");
  });

  test("dates in the team's zone, not the process's", () => {
    const lateOnDec3Utc = Date.UTC(2026, 11, 3, 20, 30);
    assert.equal(en("EUR", "UTC").date(lateOnDec3Utc, "day"), "Dec 3");
    assert.equal(en("EUR", "Asia/Shanghai").date(lateOnDec3Utc, "day"), "Dec 4");
    assert.equal(zh().date(lateOnDec3Utc, "dayTime"), "12月4日 04:30");
    assert.equal(zh().date(lateOnDec3Utc, "weekday"), "周五");
    assert.equal(
      zh().t("common.period", { from: Date.UTC(2026, 10, 20, 16), to: lateOnDec3Utc }),
      "11月21日 至 2026年12月4日",
    );
    assert.equal(
      en("EUR", "America/New_York").t("common.period", {
        from: Date.UTC(2026, 10, 20, 16),
        to: lateOnDec3Utc,
      }),
      "Nov 20 – Dec 3, 2026",
    );
  });

  test("a missing argument is an error, not a half-made sentence", () => {
    const t = en().t as (id: string, args?: object) => string;
    assert.throws(() => t("common.hosts", {}), /common\.hosts cannot be formatted/);
  });

  test("translatorFor: the channel reads team.language; a person their locale only with auto", () => {
    const team = { language: "auto", timezone: "Asia/Shanghai", currency: "CNY" } as const;
    assert.equal(translatorFor(team).t("common.hosts", { count: 2 }), "2 hosts");
    assert.equal(translatorFor(team, "zh-CN").t("common.hosts", { count: 2 }), "2 台主机");
    assert.equal(translatorFor({ ...team, language: "en" }, "zh-CN").language, "en");
    assert.equal(translatorFor(team, "zh-CN").money(900, { digits: 2 }), "¥900.00");
  });

  test("team.language: a fixed language, or each person's Slack locale with auto", () => {
    assert.equal(languageFor("zh-CN", "en-US"), "zh-CN");
    assert.equal(languageFor("en", "zh-CN"), "en");
    assert.equal(languageFor("auto", "zh-CN"), "zh-CN");
    assert.equal(languageFor("auto", "zh-TW"), "en", "only Simplified Chinese is translated");
    assert.equal(languageFor("auto", "en-GB"), "en");
    assert.equal(languageFor("auto", null), "en");
  });
});

describe("translator types", () => {
  test("an unknown id, a missing or a misspelt argument does not type-check", () => {
    const tr = en();
    const typeErrors = () => [
      // @ts-expect-error: no such message
      tr.t("chart.nothing"),
      // @ts-expect-error: `to` and `currency` are missing
      tr.t("chart.title.cost", { from: 0 }),
      // @ts-expect-error: `hosts` is not an argument of common.gpus
      tr.t("common.gpus", { hosts: 1 }),
      // @ts-expect-error: chart.empty takes no arguments
      tr.t("chart.empty", { count: 1 }),
    ];
    assert.equal(typeof typeErrors, "function", "checked by tsc, not run");
    assert.equal(tr.t("chart.empty"), "No idle GPU time in this period.");
  });
});
