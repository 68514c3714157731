import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type ChartFonts, findChartFonts, systemChartFonts } from "../../src/reports/chart-fonts.ts";
import { renderSummaryChart } from "../../src/reports/summary-chart.ts";
import { niceTicks, summaryChartData } from "../../src/reports/summary-chart-data.ts";
import { chartModel } from "../helpers/chart-model.ts";
import { type DecodedPng, decodePng } from "../helpers/png.ts";

const fonts = systemChartFonts();
const withoutCjk: ChartFonts = { ...fonts, cjk: null, cjkBold: null };

/** The (x, y) of the first `<text>` drawing exactly `label`. */
function textAt(svg: string, label: string): { x: number; y: number } {
  const match = new RegExp(`<text x="([\\d.]+)" y="([\\d.]+)"[^>]*>${label}</text>`).exec(svg);
  assert.ok(match !== null, `a text "${label}" in the SVG`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

/** The pixels (RGBA) of a box, row by row. */
function crop(png: DecodedPng, x0: number, y0: number, width: number, height: number): number[] {
  const out: number[] = [];
  for (let y = Math.round(y0); y < Math.round(y0) + height; y++) {
    const start = (y * png.width + Math.round(x0)) * png.channels;
    out.push(...png.pixels.subarray(start, start + width * png.channels));
  }
  return out;
}

function dark(pixels: number[]): number {
  let count = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! + pixels[i + 1]! + pixels[i + 2]! < 600) count++;
  return count;
}

/** How many pixels of two crops of the same size differ. */
function differing(a: number[], b: number[]): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) count++;
  }
  return count;
}

function pixelAt(png: DecodedPng, x: number, y: number): string {
  const i = (Math.round(y) * png.width + Math.round(x)) * png.channels;
  return `#${[0, 1, 2].map((c) => png.pixels[i + c]!.toString(16).padStart(2, "0")).join("")}`;
}

describe("summary chart", () => {
  test("the fonts it is tested with are installed (Debian: fonts-dejavu-core, fonts-noto-cjk)", () => {
    assert.ok(fonts.sans !== null && fonts.cjk !== null, JSON.stringify(fonts));
  });

  test("English: idle cost per day stacked by host, top hosts then others, period and currency in the title", () => {
    const model = chartModel({ currency: "EUR", timezone: "Europe/Berlin" });
    const chart = renderSummaryChart(model, { language: "en", fonts });
    const png = decodePng(chart.png);
    assert.equal(png.width, chart.width);
    assert.equal(png.height, chart.height);
    assert.equal(chart.hostsShown, 8);
    assert.match(chart.svg, />Idle cost per day by host, Nov 20 – Dec 3, 2026 \(EUR\)</);
    assert.match(chart.svg, />6 other hosts</);
    assert.match(chart.svg, />€\d{1,2},\d{3} of idle cost in 14 days on 14 hosts \(\d+ GPUs\)/);
    for (const label of ["Nov", "Dec", "weekend", "20", "3", "€0", "€1,000"]) textAt(chart.svg, label);
    assert.match(
      chart.altText,
      /^Stacked bars of idle cost per day, Nov 20 to Dec 3, 2026, by host \(8 hosts and 6 others\): €[\d,]+ in all\.$/,
    );
    assert.equal(chart.title, "Idle cost per day by host");

    const data = summaryChartData(model);
    const bottomBar =
      /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="#4e79a7"/.exec(chart.svg);
    assert.ok(bottomBar !== null, "a bar segment in the first colour");
    const [x, y, width, height] = bottomBar.slice(1).map(Number) as [number, number, number, number];
    assert.equal(pixelAt(png, x + width / 2, y + height / 2), "#4e79a7", "the top host's segment is drawn");
    assert.equal(data.series[0]!.host, "gpu-01", "the host with the most idle cost is at the bottom");
    const legendTotal = textAt(chart.svg, "€4,[0-9]{3}");
    assert.ok(legendTotal.x > x, "its period total in the legend");
  });

  test("Chinese: its labels are drawn, not empty boxes (compared with a render without the CJK font)", () => {
    const model = chartModel({ currency: "CNY", timezone: "Asia/Shanghai" });
    const chart = renderSummaryChart(model, { language: "zh-CN", fonts });
    assert.match(chart.svg, />每日闲置成本（按主机），11月20日 至 2026年12月3日（CNY）</);
    assert.match(chart.svg, />其他 6 台主机</);
    assert.match(
      chart.altText,
      /^每日闲置成本堆叠柱状图，11月20日 至 2026年12月3日，按主机（8 台，另有 6 台归为其他）：共 ¥[\d,]+。$/,
    );
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args) };
    const boxes = renderSummaryChart(model, { language: "zh-CN", fonts: withoutCjk, logger });
    renderSummaryChart(model, { language: "zh-CN", fonts: withoutCjk, logger });
    assert.equal(boxes.svg, chart.svg, "the same drawing, only the fonts differ");
    assert.equal(warnings.length, 1, "the missing font is logged once");
    assert.match(JSON.stringify(warnings[0]), /NotoSansCJK-Regular\.ttc.*fonts-noto-cjk/);

    const drawn = decodePng(chart.png);
    const missing = decodePng(boxes.png);
    // "每日闲置成本（按主机）" opens the title: CJK only, so the fonts are the only difference there.
    const title = textAt(chart.svg, "每日[^<]*");
    const opening = (png: DecodedPng) => crop(png, title.x, title.y - 18, 200, 24);
    // Without the font the glyphs are empty boxes: a render that drew boxes would equal `missing`.
    const changed = differing(opening(drawn), opening(missing));
    assert.ok(changed > 400, `the title is drawn with the CJK font: ${changed} pixels differ from the boxes`);
    assert.ok(dark(opening(drawn)) > 600, "with ink where it is written");
    const others = textAt(chart.svg, "其他 6 台主机");
    const legend = (png: DecodedPng) => crop(png, others.x, others.y - 12, 90, 16);
    assert.notDeepEqual(legend(drawn), legend(missing), "and the legend");
    const digits = textAt(chart.svg, "20");
    const day = (png: DecodedPng) => crop(png, digits.x - 10, digits.y - 12, 20, 16);
    assert.deepEqual(day(drawn), day(missing), "Latin text is drawn by the Latin font either way");
  });

  test("an English chart does not need the CJK font: the same pixels without it", () => {
    const model = chartModel();
    const a = renderSummaryChart(model, { language: "en", fonts });
    const b = renderSummaryChart(model, { language: "en", fonts: withoutCjk });
    assert.ok(a.png.equals(b.png));
  });

  test("an English chart with a host named in Chinese loads the CJK font for it", () => {
    const model = chartModel({ names: ["训练机-01", "gpu-02"] });
    const drawn = renderSummaryChart(model, { language: "en", fonts });
    const boxes = renderSummaryChart(model, { language: "en", fonts: withoutCjk });
    const label = textAt(drawn.svg, "训练机-01");
    const cell = (png: DecodedPng) => crop(png, label.x, label.y - 12, 40, 16);
    assert.ok(differing(cell(decodePng(drawn.png)), cell(decodePng(boxes.png))) > 50, "its name is drawn");
  });

  test("no price anywhere: idle GPU-hours, and a note that says how to set one", () => {
    const chart = renderSummaryChart(chartModel({ unpriced: true, hosts: 9 }), { language: "en", fonts });
    assert.match(chart.svg, />Idle GPU-hours per day by host, Nov 20 – Dec 3, 2026</);
    assert.match(chart.svg, />No host has a price, so the chart counts idle GPU-hours/);
    assert.equal(chart.hostsShown, 9, "nine hosts all shown: never an others of one host");
    assert.doesNotMatch(chart.svg, /other host/);
  });

  test("no idle time: the axes and a sentence that says so", () => {
    const chart = renderSummaryChart(chartModel({ empty: true }), { language: "zh-CN", fonts });
    assert.match(chart.svg, />本周期内没有闲置的 GPU 时间。</);
    assert.equal(chart.hostsShown, 0);
    decodePng(chart.png);
  });

  test("no idle time: the plot takes the legend's place instead of leaving it blank", () => {
    const chart = renderSummaryChart(chartModel({ empty: true }), { language: "en", fonts });
    const png = decodePng(chart.png);
    const zero = textAt(chart.svg, "0");
    const axisY = zero.y - 4;
    const axisAt = (x: number) => pixelAt(png, x, axisY);
    assert.notEqual(axisAt(chart.width - 40), "#ffffff", "the axis runs on where a legend would be");
    const blankColumns = Array.from({ length: chart.width - 100 }, (_, i) => i + 100).filter((x) =>
      Array.from({ length: 300 }, (_, dy) => pixelAt(png, x, axisY - 299 + dy)).every((c) => c === "#ffffff"),
    );
    assert.ok(blankColumns.length < 60, `${blankColumns.length} blank columns of plot height`);
  });

  test("the file is titled like the chart: idle GPU-hours when no host has a price", () => {
    const hours = renderSummaryChart(chartModel({ unpriced: true }), { language: "en", fonts });
    assert.equal(hours.title, "Idle GPU-hours per day by host");
    const cost = renderSummaryChart(chartModel(), { language: "en", fonts });
    assert.equal(cost.title, "Idle cost per day by host");
  });

  test("long host names are cut to fit the legend", () => {
    const names = Array.from({ length: 3 }, (_, i) => `node-${i}.a-very-long-cluster-name.example.org`);
    const chart = renderSummaryChart(chartModel({ names }), { language: "en", fonts });
    assert.match(chart.svg, />node-0\.a-very-long[^<]*…</);
  });
});

describe("chart data and fonts", () => {
  test("axis ticks are round numbers from 0 to at least the largest value", () => {
    assert.deepEqual(niceTicks(1_330), [0, 500, 1000, 1500]);
    assert.deepEqual(niceTicks(9_800), [0, 2000, 4000, 6000, 8000, 10000]);
    assert.deepEqual(niceTicks(3.2), [0, 1, 2, 3, 4]);
    assert.deepEqual(niceTicks(0), [0, 1]);
  });

  test("fonts are found by path, first existing file of each kind", () => {
    const found = findChartFonts(
      { sans: ["/a", "/b"], sansBold: ["/c"], cjk: ["/d"], cjkBold: [] },
      (path) => path === "/b" || path === "/d",
    );
    assert.deepEqual(found, { sans: "/b", sansBold: null, cjk: "/d", cjkBold: null });
  });
});
