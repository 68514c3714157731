/**
 * Renders the summary chart examples in docs/ (one English, one Chinese) from a made-up 14-host
 * fleet: `node --import tsx scripts/chart-examples.ts`. Needs fonts-dejavu-core and fonts-noto-cjk.
 */
import { writeFileSync } from "node:fs";
import { renderSummaryChart } from "../src/reports/summary-chart.ts";
import { chartModel } from "../test/helpers/chart-model.ts";

const examples = [
  { file: "docs/summary-chart-en.png", language: "en", currency: "EUR", timezone: "Europe/Berlin" },
  { file: "docs/summary-chart-zh-CN.png", language: "zh-CN", currency: "CNY", timezone: "Asia/Shanghai" },
] as const;

for (const example of examples) {
  const chart = renderSummaryChart(chartModel({ currency: example.currency, timezone: example.timezone }), {
    language: example.language,
  });
  writeFileSync(new URL(`../${example.file}`, import.meta.url), chart.png);
  process.stdout.write(`${example.file}: ${chart.width} × ${chart.height}, ${chart.png.length} bytes\n`);
}
