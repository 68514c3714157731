import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * One place for `Intl` formatters: numbers, money and dates a person reads are formatted by
 * `src/messages/formatters.ts` (through the translator), in the reader's language and the team's
 * zone and currency. This finds `Intl` formatters, `toLocale…String` and dayjs display patterns
 * (`ddd`, `MMM`) anywhere else in `src/`.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HOME = "src/messages/formatters.ts";

/** The one wall-clock reader (`localParts`: cron slot keys, local days, tariff hours), never shown. */
const NOT_FOR_DISPLAY: readonly string[] = ["src/shared/time.ts"];

const FORMATTER =
  /new Intl\.(?:NumberFormat|DateTimeFormat|ListFormat|PluralRules|RelativeTimeFormat)\b|\.toLocale\w*String\(/;
/** A dayjs pattern with day or month names (`ddd D MMM`, `MMMM YYYY`): English words for people. */
const DISPLAY_PATTERN = /\.format\(\s*["'`][^"'`]*(?:ddd|MMM)[^"'`]*["'`]\s*\)/;

function sourceFiles(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return path.endsWith(".ts") ? [path] : [];
  return readdirSync(full).flatMap((name) => sourceFiles(relative(ROOT, join(full, name))));
}

/** `file:line: code` for each formatter outside the one place. */
export function formattersIn(path: string, source: string): string[] {
  return source
    .split("\n")
    .flatMap((line, i) =>
      FORMATTER.test(line) || DISPLAY_PATTERN.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
    );
}

describe("one place for Intl formatters", () => {
  const files = sourceFiles("src").filter((path) => path !== HOME);
  const found = files.flatMap((path) => formattersIn(path, readFileSync(join(ROOT, path), "utf8")));
  const fileOf = (finding: string) => finding.slice(0, finding.indexOf(":"));

  test("the finder sees formatters and display patterns, not ISO days", () => {
    assert.equal(formattersIn("a.ts", 'new Intl.NumberFormat("en-US", { style: "currency" })').length, 1);
    assert.equal(formattersIn("a.ts", "amount.toLocaleString()").length, 1);
    assert.equal(formattersIn("a.ts", 'dayjs(ms).tz(zone).format("ddd D MMM HH:mm")').length, 1);
    assert.equal(formattersIn("a.ts", 'dayjs(ms).tz(zone).format("YYYY-MM-DD")').length, 0);
    assert.equal(formattersIn("a.ts", "const f: Intl.DateTimeFormatOptions = {};").length, 0);
  });

  test("numbers, money and dates for people are formatted in src/messages/formatters.ts only", () => {
    const outside = found.filter((finding) => !NOT_FOR_DISPLAY.includes(fileOf(finding)));
    assert.deepEqual(outside, [], "format through the translator (tr.money, tr.number, tr.date)");
  });

  test("the allowed files still have what they are allowed for", () => {
    const withFormatters = new Set(found.map(fileOf));
    assert.deepEqual(
      NOT_FOR_DISPLAY.filter((file) => !withFormatters.has(file)),
      [],
      "these files format nothing any more: take them off the list",
    );
  });
});
