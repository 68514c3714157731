import type { Language } from "../messages/languages.ts";
import { type Translator, translator } from "../messages/translator.ts";
import type { Logger } from "../shared/logger.ts";
import { localParts } from "../shared/time.ts";
import { type ChartFonts, CJK_FAMILY, LATIN_FAMILIES, systemChartFonts } from "./chart-fonts.ts";
import { renderPng } from "./render-png.ts";
import { type ChartData, type ChartSeries, niceTicks, summaryChartData } from "./summary-chart-data.ts";
import type { SummaryModel } from "./summary-model.ts";
import { fitText, fontFamily, svgLine, svgRect, svgText, type TextStyle, wrapText } from "./svg.ts";

export interface SummaryChart {
  png: Buffer;
  /** The SVG the PNG was rendered from. */
  svg: string;
  width: number;
  height: number;
  /** Hosts with a colour of their own (the rest are stacked as others). */
  hostsShown: number;
  /** The file's title, in the chart's language. */
  title: string;
  /** For the image's `alt_text`. */
  altText: string;
}

export interface SummaryChartOptions {
  /** The language of every label (the summary's: `team.language`). */
  language: Language;
  /** Default: the fonts found on this machine ({@link systemChartFonts}). */
  fonts?: ChartFonts;
  /** Told once when a font the chart needs is missing. */
  logger?: Pick<Logger, "warn">;
}

const WIDTH = 960;
const PAD = 24;
const LEGEND_WIDTH = 236;
const PLOT_TOP = 104;
const PLOT_HEIGHT = 300;
const PLOT_LEFT = PAD + 64;
const LEGEND_LEFT = WIDTH - PAD - LEGEND_WIDTH;
const SUBTITLE_LINE = 17;

/** Where the plot is: below the subtitle's lines, as wide as the page when there is no legend. */
interface Frame {
  top: number;
  bottom: number;
  right: number;
}

// NOTE: Latin fonts first, also in Chinese: resvg reads the whole 20 MB CJK collection again for
// every text chunk it shapes with it (~25 ms of system time each), so only chunks with CJK
// characters should reach it. Its fallback for a missing glyph takes the first face that has it,
// whatever the weight, so bold Chinese text names the CJK family first.
const BOLD_CJK = [CJK_FAMILY, ...LATIN_FAMILIES];

const INK = "#1f2328";
const MUTED = "#59636e";
const GRID = "#e3e6ea";
const AXIS = "#8c959f";
const WEEKEND = "#f4f6f8";
const OTHERS = "#b9b4ae";
/** Tableau 10: distinct in hue and lightness, kind to the most common colour blindness. */
const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"];

/**
 * The summary chart: idle cost per day stacked by host (the hosts with the most idle cost, the rest
 * as others; idle GPU-hours when no host has a price), with a legend of each host's period total,
 * the period and the currency in the title, every label from the message catalog in `language`.
 * Drawn as SVG and rendered to PNG with real fonts.
 */
export function renderSummaryChart(model: SummaryModel, options: SummaryChartOptions): SummaryChart {
  const tr = translator({ language: options.language, timeZone: model.timezone, currency: model.currency });
  const data = summaryChartData(model);
  const notes = footnotes(tr, data);
  const head = header(tr, model, data);
  const top = PLOT_TOP + (head.subtitleLines - 1) * SUBTITLE_LINE;
  const frame: Frame = {
    top,
    bottom: top + PLOT_HEIGHT,
    right: data.series.length === 0 ? WIDTH - PAD : LEGEND_LEFT - 28,
  };
  const notesTop = frame.bottom + 62;
  const legendBottom = top + 30 + data.series.length * 22;
  const contentBottom = notes.length > 0 ? notesTop + (notes.length - 1) * 17 : frame.bottom + 34;
  const height = Math.max(contentBottom, legendBottom) + PAD;
  const body = [
    svgRect(0, 0, WIDTH, height, "#ffffff"),
    ...head.texts,
    ...plot(tr, model, data, frame),
    ...legend(tr, data, top),
    ...notes.map((note, i) => svgText(PAD, notesTop + i * 17, note, { size: 11.5, fill: MUTED })),
  ];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" ` +
    `viewBox="0 0 ${WIDTH} ${height}" font-family="${fontFamily([...LATIN_FAMILIES, CJK_FAMILY])}">` +
    `${body.join("")}</svg>`;
  const from = model.period.fromMs;
  const to = model.period.toMs - 1;
  const shown = data.series.filter((series) => series.host !== null).length;
  const others = data.series.find((series) => series.host === null)?.hosts ?? 0;
  return {
    png: renderPng(svg, options.fonts ?? systemChartFonts(), options.logger),
    svg,
    width: WIDTH,
    height,
    hostsShown: shown,
    title: data.unit === "cost" ? tr.t("chart.file.title") : tr.t("chart.file.title.hours"),
    altText:
      data.unit === "cost"
        ? tr.t("chart.alt.cost", { from, to, shown, others, total: data.total })
        : tr.t("chart.alt.hours", { from, to, shown, others, total: data.total }),
  };
}

function header(
  tr: Translator,
  model: SummaryModel,
  data: ChartData,
): { texts: string[]; subtitleLines: number } {
  const from = model.period.fromMs;
  const to = model.period.toMs - 1;
  const counts = {
    days: model.dayStartsMs.length,
    hosts: model.fleet.hosts,
    gpus: model.fleet.gpus,
    total: data.total,
  };
  const title =
    data.unit === "cost"
      ? tr.t("chart.title.cost", { from, to, currency: model.currency })
      : tr.t("chart.title.hours", { from, to });
  const subtitle = wrapText(
    data.unit === "cost" ? tr.t("chart.subtitle.cost", counts) : tr.t("chart.subtitle.hours", counts),
    WIDTH - 2 * PAD,
    13,
  );
  const texts = [
    svgText(PAD, 40, fitText(title, WIDTH - 2 * PAD, 19), { size: 19, fill: INK, ...bold(tr) }),
    ...subtitle.map((line, i) => svgText(PAD, 64 + i * SUBTITLE_LINE, line, { size: 13, fill: MUTED })),
  ];
  return { texts, subtitleLines: subtitle.length };
}

/** Where the plot puts a value and a day column. */
interface PlotScale extends Frame {
  columnWidth: number;
  ticks: number[];
  y(value: number): number;
}

function plot(tr: Translator, model: SummaryModel, data: ChartData, frame: Frame): string[] {
  const ticks = niceTicks(Math.max(0, ...data.dayTotals));
  const most = ticks[ticks.length - 1]!;
  const scale: PlotScale = {
    ...frame,
    columnWidth: (frame.right - PLOT_LEFT) / Math.max(1, model.dayStartsMs.length),
    ticks,
    y: (value) => frame.bottom - (value / most) * PLOT_HEIGHT,
  };
  const empty =
    data.total > 0
      ? []
      : [
          svgText((PLOT_LEFT + frame.right) / 2, frame.top + PLOT_HEIGHT / 2, tr.t("chart.empty"), {
            size: 14,
            fill: MUTED,
            anchor: "middle",
          }),
        ];
  return [...dayAxis(tr, model, scale), ...valueAxis(tr, model, data, scale), ...bars(data, scale), ...empty];
}

/** Weekends shaded, the day of the month under each column, the month where it starts. */
function dayAxis(tr: Translator, model: SummaryModel, scale: PlotScale): string[] {
  const out: string[] = [];
  let month = -1;
  model.dayStartsMs.forEach((startMs, day) => {
    const x = PLOT_LEFT + day * scale.columnWidth;
    const local = localParts(startMs, model.timezone);
    if (local.weekday === "Sat" || local.weekday === "Sun") {
      out.push(svgRect(x, scale.top, scale.columnWidth, PLOT_HEIGHT, WEEKEND));
    }
    const centre = Math.round(x + scale.columnWidth / 2);
    out.push(
      svgText(centre, scale.bottom + 18, String(local.day), { size: 12, fill: INK, anchor: "middle" }),
    );
    if (local.month !== month) {
      const name = tr.date(startMs, "month");
      out.push(svgText(centre, scale.bottom + 34, name, { size: 11, fill: MUTED, anchor: "middle" }));
      month = local.month;
    }
  });
  out.push(svgRect(scale.right - 10, scale.top - 24, 10, 10, WEEKEND, ' stroke="#c4cad1"'));
  out.push(
    svgText(scale.right - 16, scale.top - 15, tr.t("chart.weekend"), {
      size: 11,
      fill: MUTED,
      anchor: "end",
    }),
  );
  return out;
}

/** Grid lines with their values, and the unit above them. */
function valueAxis(tr: Translator, model: SummaryModel, data: ChartData, scale: PlotScale): string[] {
  const step = scale.ticks[1]! - scale.ticks[0]!;
  const out = scale.ticks.flatMap((tick) => [
    svgLine(PLOT_LEFT, scale.y(tick), scale.right, scale.y(tick), tick === 0 ? AXIS : GRID),
    svgText(PLOT_LEFT - 8, scale.y(tick) + 4, axisValue(tr, data, tick, step), {
      size: 11,
      fill: MUTED,
      anchor: "end",
    }),
  ]);
  const unit =
    data.unit === "cost" ? tr.t("chart.axis.cost", { currency: model.currency }) : tr.t("chart.axis.hours");
  out.push(svgText(PLOT_LEFT - 8, scale.top - 14, unit, { size: 11, fill: MUTED, anchor: "start" }));
  return out;
}

/** One stacked bar a day, the largest series at the bottom. */
function bars(data: ChartData, scale: PlotScale): string[] {
  const out: string[] = [];
  const barWidth = Math.min(40, scale.columnWidth * 0.66);
  data.dayTotals.forEach((_, day) => {
    const x = PLOT_LEFT + day * scale.columnWidth + (scale.columnWidth - barWidth) / 2;
    let base = 0;
    data.series.forEach((series, i) => {
      const value = series.daily[day] ?? 0;
      if (value <= 0) return;
      const y0 = scale.y(base);
      const y1 = scale.y(base + value);
      out.push(
        svgRect(x, y1, barWidth, y0 - y1, colourOf(series, i), ' stroke="#ffffff" stroke-width="0.75"'),
      );
      base += value;
    });
  });
  return out;
}

function legend(tr: Translator, data: ChartData, plotTop: number): string[] {
  if (data.series.length === 0) return [];
  const days = data.dayTotals.length;
  const title =
    data.unit === "cost"
      ? tr.t("chart.legend.title.cost", { count: days })
      : tr.t("chart.legend.title.hours", { count: days });
  const out = [svgText(LEGEND_LEFT, plotTop + 4, title, { size: 12.5, fill: INK, ...bold(tr) })];
  data.series.forEach((series, i) => {
    const top = plotTop + 20 + i * 22;
    const value = legendValue(tr, data, series.total);
    const valueWidth = 70;
    const name = series.host ?? tr.t("chart.legend.others", { count: series.hosts });
    out.push(svgRect(LEGEND_LEFT, top, 12, 12, colourOf(series, i), ' rx="2"'));
    out.push(
      svgText(LEGEND_LEFT + 20, top + 10.5, fitText(name, LEGEND_WIDTH - 20 - valueWidth - 6, 12), {
        size: 12,
        fill: INK,
      }),
    );
    out.push(
      svgText(LEGEND_LEFT + LEGEND_WIDTH, top + 10.5, value, { size: 12, fill: MUTED, anchor: "end" }),
    );
  });
  return out;
}

function bold(tr: Translator): Pick<TextStyle, "weight" | "family"> {
  return tr.language === "zh-CN" ? { weight: "bold", family: BOLD_CJK } : { weight: "bold" };
}

function footnotes(tr: Translator, data: ChartData): string[] {
  if (data.unpricedGpus === 0) return [];
  return data.unit === "cost"
    ? [tr.t("chart.note.unpriced", { count: data.unpricedGpus })]
    : [tr.t("chart.note.noPrice")];
}

function colourOf(series: ChartSeries, index: number): string {
  return series.host === null ? OTHERS : (PALETTE[index % PALETTE.length] ?? OTHERS);
}

function axisValue(tr: Translator, data: ChartData, value: number, step: number): string {
  const digits = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
  return data.unit === "cost" ? tr.money(value, { digits }) : tr.number(value, digits);
}

function legendValue(tr: Translator, data: ChartData, value: number): string {
  return data.unit === "cost" ? tr.money(value) : tr.number(value, value < 10 ? 1 : 0);
}
