import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { IntlMessageFormat } from "intl-messageformat";
import { CATALOGS, type MessageId } from "../../src/messages/catalog.ts";
import { en } from "../../src/messages/en.ts";
import { intlLocale } from "../../src/messages/formatters.ts";
import { LANGUAGES } from "../../src/messages/languages.ts";
import { icuFormats } from "../../src/messages/translator.ts";

// The ICU parser's element types (intl-messageformat's AST): 0 literal, 1 argument, 2 number,
// 3 date, 4 time, 5 select, 6 plural, 7 `#`, 8 tag.
interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

function ast(text: string, language: string): Element[] {
  return new IntlMessageFormat(text, language, icuFormats("UTC", "EUR"), {
    ignoreTag: true,
  }).getAst() as Element[];
}

/**
 * Every argument, plural and select branches included, as `name`, and `name:date` for dates and
 * times (a plural in English may be a plain number in a language with one plural form).
 */
function argumentsOf(elements: readonly Element[], out = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type !== 0 && element.type !== 7 && element.value !== undefined) {
      out.add(element.value);
      if (element.type === 3 || element.type === 4) out.add(`${element.value}:date`);
    }
    for (const option of Object.values(element.options ?? {})) argumentsOf(option.value, out);
    if (element.children !== undefined) argumentsOf(element.children, out);
  }
  return out;
}

/** The words a reader sees: literal text of every branch. */
function literalText(elements: readonly Element[]): string {
  return elements
    .map((element) =>
      element.type === 0
        ? (element.value ?? "")
        : Object.values(element.options ?? {})
            .map((option) => literalText(option.value))
            .join(" "),
    )
    .join(" ");
}

const ids = Object.keys(en) as MessageId[];

describe("the message catalog", () => {
  test("every language has every message id and no other", () => {
    for (const language of LANGUAGES) {
      const keys = Object.keys(CATALOGS[language]);
      assert.deepEqual(
        ids.filter((id) => !keys.includes(id)),
        [],
        `${language} lacks a translation`,
      );
      assert.deepEqual(
        keys.filter((key) => !(key in en)),
        [],
        `${language} has ids that English does not`,
      );
    }
  });

  test("every message parses and uses the same arguments (dates as dates) in every language", () => {
    for (const id of ids) {
      const expected = [...argumentsOf(ast(en[id], "en"))].sort();
      for (const language of LANGUAGES) {
        const text = CATALOGS[language][id];
        assert.deepEqual(
          [...argumentsOf(ast(text, intlLocale(language)))].sort(),
          expected,
          `${language} ${id}: ${text}`,
        );
      }
    }
  });

  test("the type-level argument finder (ArgNames) finds exactly each message's arguments", () => {
    // The same walk as `ArgNames` in catalog.ts: after each `{`, the text up to the first `}`, `,`
    // or `{`, unless it is empty, starts with `#` or has a space.
    const typeLevelNames = (text: string) => {
      const names = new Set<string>();
      for (let at = text.indexOf("{"); at >= 0; at = text.indexOf("{", at + 1)) {
        const token = /^[^},{]*/.exec(text.slice(at + 1))![0];
        if (token !== "" && !token.startsWith("#") && !token.includes(" ")) names.add(token);
      }
      return [...names].sort();
    };
    for (const id of ids) {
      const real = [...argumentsOf(ast(en[id], "en"))].filter((name) => !name.endsWith(":date")).sort();
      assert.deepEqual(typeLevelNames(en[id]), real, `${id}: ${en[id]}`);
    }
  });

  test("a translation is not a copy of the English text", () => {
    for (const language of LANGUAGES.filter((l) => l !== "en")) {
      for (const id of ids) {
        const words = literalText(ast(en[id], "en"));
        if (!/[A-Za-z]{2}/.test(words)) continue;
        assert.notEqual(CATALOGS[language][id], en[id], `${language} ${id} is untranslated`);
      }
    }
  });

  test("the zh-CN catalog uses the glossary's terms wherever English does", () => {
    const glossary = readFileSync(new URL("../../src/messages/glossary.md", import.meta.url), "utf8");
    const terms = glossary
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .map((line) => line.split("|").map((cell) => cell.trim()))
      .map((cells) => ({ en: cells[1]!, zh: cells[2]! }))
      .filter((term) => term.en !== "en" && !term.en.startsWith("-"));
    assert.ok(terms.length >= 20, `${terms.length} glossary terms`);
    assert.ok(terms.some((term) => term.en === "idle" && term.zh === "闲置"));
    let checked = 0;
    for (const id of ids) {
      const words = literalText(ast(en[id], "en"));
      const chinese = CATALOGS["zh-CN"][id];
      for (const term of terms) {
        const escaped = term.en.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&");
        if (!new RegExp(`(?<![\\w-])${escaped}(?:s|es|d|ed|ing)?(?![\\w-])`, "i").test(words)) continue;
        checked++;
        assert.ok(
          chinese.includes(term.zh),
          `zh-CN ${id} should say ${term.zh} for "${term.en}": ${chinese}`,
        );
      }
    }
    assert.ok(checked > 10, `${checked} term uses checked`);
  });
});
