import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, parseConfig } from "../../src/config/load-config.ts";
import { languageFor } from "../../src/messages/languages.ts";

describe("team.language", () => {
  it("is English unless set; zh-CN and auto are accepted", () => {
    assert.equal(parseConfig({}).team.language, "en");
    assert.equal(parseConfig({ team: { language: "zh-CN" } }).team.language, "zh-CN");
    assert.equal(parseConfig({ team: { language: "auto", currency: "CNY" } }).team.language, "auto");
  });

  it("refuses a language the catalog does not have, naming the field", () => {
    assert.throws(
      () => parseConfig({ team: { language: "fr" } }),
      (error) => error instanceof ConfigError && error.problems.some((p) => p.path === "team.language"),
    );
  });

  it("channel posts use it; with auto they are in English", () => {
    assert.equal(languageFor(parseConfig({ team: { language: "zh-CN" } }).team.language), "zh-CN");
    assert.equal(languageFor(parseConfig({ team: { language: "auto" } }).team.language), "en");
  });
});
