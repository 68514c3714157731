import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { type ChartFonts, systemChartFonts } from "../../src/reports/chart-fonts.ts";
import { heatColour, renderHeatmap } from "../../src/reports/heatmap-chart.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { readHeatmap } from "../../src/usecases/ledger/read-heatmap.ts";
import { type DecodedPng, decodePng } from "../helpers/png.ts";
import { failedHost, gpu, okHost, openStore, tempDir } from "../store/store-fixtures.ts";

const fonts = systemChartFonts();
const withoutCjk: ChartFonts = { ...fonts, cjk: null, cjkBold: null };
const START = Date.UTC(2026, 9, 26); // Monday
const SLOT = Date.UTC(2026, 11, 7, 9); // Monday 7 Dec 2026, 09:00 UTC: six weeks later
const STEP = 30 * MINUTE_MS;
const temp = tempDir("gw-heatmap-");
after(() => temp.remove());

/** gpu-a busy on weekdays 09:00–17:00 UTC; gpu-b idle, its polls failing every Tuesday. */
function sixWeeks() {
  const { store } = openStore(temp.file("six-weeks.db"), { sampleSpanMaxMs: STEP });
  for (let at = START; at < SLOT; at += STEP) {
    const d = new Date(at);
    const weekday = (d.getUTCDay() + 6) % 7;
    const util = weekday < 5 && d.getUTCHours() >= 9 && d.getUTCHours() < 17 ? 90 : 0;
    const observations: HostObservation[] = [
      okHost("gpu-a", at, { gpus: [gpu(0, { utilPct: util }), gpu(1, { utilPct: util })] }),
      weekday === 1 ? failedHost("gpu-b", at) : okHost("gpu-b", at),
    ];
    store.writeCycle(observations, at);
  }
  while (!store.rollup(SLOT, 10, 10_000).complete) {}
  return store;
}

function textAt(svg: string, label: string): { x: number; y: number } {
  const match = new RegExp(`<text x="([\\d.]+)" y="([\\d.]+)"[^>]*>${label}</text>`).exec(svg);
  assert.ok(match !== null, `a text "${label}" in the SVG`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

function pixelAt(png: DecodedPng, x: number, y: number): string {
  const i = (Math.round(y) * png.width + Math.round(x)) * png.channels;
  return `#${[0, 1, 2].map((c) => png.pixels[i + c]!.toString(16).padStart(2, "0")).join("")}`;
}

/** The centre of the heatmap cell of `weekday` (0 Monday) and `hour` in the block whose rows start at `monday`. */
function cell(svg: string, monday: { y: number }, weekday: number, hour: number): { x: number; y: number } {
  const first = /<rect x="([\d.]+)" y="([\d.]+)" width="21"/.exec(
    svg.slice(svg.indexOf(">", svg.indexOf(`y="${monday.y}"`))),
  );
  assert.ok(first !== null);
  return { x: Number(first[1]) + hour * 22 + 10, y: Number(first[2]) + weekday * 14 + 6 };
}

describe("the summary's hour-of-week heatmap, from six weeks of rollups in SQLite", () => {
  const metrics = sixWeeks();
  const input = readHeatmap({ metrics, config: { team: { timezone: "UTC", currency: "EUR" } } }, SLOT);

  test("English: a block per host, weekdays and hours labelled, busy cells dark, unknown grey", () => {
    const chart = renderHeatmap(input, { language: "en", fonts });
    const png = decodePng(chart.png);
    assert.equal(png.width, chart.width);
    assert.equal(png.height, chart.height);
    assert.equal(chart.rowsShown, 2);
    assert.equal(chart.title, "GPU use by hour of the week");
    assert.equal(chart.altText, "Heatmap of GPU use by hour of the week for 2 hosts, Oct 12 to Dec 7, 2026.");
    assert.match(chart.svg, />GPU use by hour of the week, Oct 12 – Dec 7, 2026</);
    for (const label of [
      "gpu-a \\(2 GPUs\\)",
      "gpu-b \\(1 GPU\\)",
      "Mon",
      "Sun",
      "00",
      "21",
      "idle",
      "busy",
      "no readings",
    ]) {
      textAt(chart.svg, label);
    }
    const mondays = [...chart.svg.matchAll(/<text x="[\d.]+" y="([\d.]+)"[^>]*>Mon<\/text>/g)].map((m) => ({
      y: Number(m[1]),
    }));
    assert.equal(mondays.length, 2);
    const a = (weekday: number, hour: number) => cell(chart.svg, mondays[0]!, weekday, hour);
    const b = (weekday: number, hour: number) => cell(chart.svg, mondays[1]!, weekday, hour);
    assert.equal(pixelAt(png, a(2, 10).x, a(2, 10).y), heatColour(1), "gpu-a, Wednesday 10:00: busy");
    assert.equal(pixelAt(png, a(2, 20).x, a(2, 20).y), heatColour(0), "gpu-a, Wednesday 20:00: idle");
    assert.equal(pixelAt(png, a(5, 10).x, a(5, 10).y), heatColour(0), "gpu-a, Saturday 10:00: idle");
    assert.equal(pixelAt(png, b(1, 10).x, b(1, 10).y), heatColour(null), "gpu-b, Tuesday: no readings, grey");
    assert.equal(pixelAt(png, b(2, 10).x, b(2, 10).y), heatColour(0), "gpu-b, Wednesday: idle");
  });

  test("Chinese: labels from the catalog, drawn with the CJK font", () => {
    const chart = renderHeatmap(input, { language: "zh-CN", fonts });
    const boxes = renderHeatmap(input, { language: "zh-CN", fonts: withoutCjk });
    textAt(chart.svg, "周一");
    textAt(chart.svg, "gpu-a（2 块 GPU）");
    textAt(chart.svg, "忙碌");
    assert.equal(chart.title, "每周各小时的 GPU 使用情况");
    const label = textAt(chart.svg, "周一");
    const drawn = decodePng(chart.png);
    const missing = decodePng(boxes.png);
    let differ = 0;
    for (let y = label.y - 10; y < label.y + 2; y++) {
      for (let x = label.x; x < label.x + 24; x++)
        if (pixelAt(drawn, x, y) !== pixelAt(missing, x, y)) differ++;
    }
    assert.ok(differ > 20, `the weekday is drawn: ${differ} pixels differ from empty boxes`);
  });

  test("without enough readings it says so instead of drawing, with no legend for cells it does not draw", () => {
    const chart = renderHeatmap({ ...input, rows: [] }, { language: "en", fonts });
    assert.match(chart.svg, />No host has enough hourly readings for an hour-of-week profile yet.</);
    assert.doesNotMatch(chart.svg, />no readings</);
    assert.ok(chart.height < 160, `${chart.height} px high`);
    decodePng(chart.png);
  });

  test("its subtitle is wrapped onto lines, never cut off", () => {
    for (const language of ["en", "zh-CN"] as const) {
      const chart = renderHeatmap(input, { language, fonts });
      const lines = [
        ...chart.svg.matchAll(/<text x="24" y="(?:60|75|90)" font-size="11.5"[^>]*>([^<]*)</g),
      ].map((m) => m[1]!);
      assert.ok(lines.length >= (language === "en" ? 2 : 1), lines.join(" / "));
      assert.ok(
        lines.every((line) => !line.endsWith("…")),
        lines.join(" / "),
      );
      assert.match(lines.join(""), language === "en" ? /too few readings to say\.$/ : /无法判断。$/);
    }
  });
});
