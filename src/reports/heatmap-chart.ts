import { addDays, localDayStartMs } from "../checks/local-day.ts";
import type { Language } from "../messages/languages.ts";
import { type Translator, translator } from "../messages/translator.ts";
import { HOUR_MS } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { type ChartFonts, CJK_FAMILY, LATIN_FAMILIES, systemChartFonts } from "./chart-fonts.ts";
import { renderPng } from "./render-png.ts";
import { fitText, fontFamily, svgRect, svgText, type TextStyle, wrapText } from "./svg.ts";

/** One host (or project) of the heatmap: its busy share per hour-of-week, `null` unknown. */
export interface HeatmapRow {
  name: string;
  gpus: number;
  /** 168 entries, Monday 00:00 first (team zone). */
  busyShares: ReadonlyArray<number | null>;
}

/** What the heatmap draws. */
export interface HeatmapInput {
  fromMs: number;
  toMs: number;
  weeks: number;
  timezone: string;
  currency: string;
  rows: readonly HeatmapRow[];
  /** Drawn for one project's GPU time only (named in the title); absent: the whole fleet. */
  project?: string;
}

export interface HeatmapChart {
  png: Buffer;
  svg: string;
  width: number;
  height: number;
  /** Rows drawn (the rest are counted in a note). */
  rowsShown: number;
  title: string;
  altText: string;
}

export interface HeatmapOptions {
  language: Language;
  fonts?: ChartFonts;
  logger?: Pick<Logger, "warn">;
}

/** Rows drawn at most; the rest are counted. */
export const HEATMAP_MAX_ROWS = 16;
const PAD = 24;
const LABEL_WIDTH = 56;
const CELL_W = 22;
const CELL_H = 14;
const ROW_GAP = 34;
const TOP = 92;
const SUBTITLE_LINE = 15;
const WIDTH = PAD + LABEL_WIDTH + 24 * CELL_W + PAD;
const BLOCK_H = ROW_GAP + 7 * CELL_H + 14;
const INK = "#1f2328";
const MUTED = "#59636e";
const UNKNOWN = "#d8dbdf";
const IDLE_RGB = [238, 244, 250] as const;
const BUSY_RGB = [31, 78, 140] as const;

/** The colour of a busy share: light (idle) to dark blue (busy); grey when unknown. */
export function heatColour(share: number | null): string {
  if (share === null) return UNKNOWN;
  const mix = (i: 0 | 1 | 2) => Math.round(IDLE_RGB[i] + (BUSY_RGB[i] - IDLE_RGB[i]) * share);
  return `#${[mix(0), mix(1), mix(2)].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The hour-of-week heatmap of the biweekly summary: per host (or project) a week of hours, a cell's
 * colour its GPUs' busy share, grey where too few readings say; every label from the catalog. Drawn
 * as SVG and rendered to PNG with real fonts.
 */
export function renderHeatmap(input: HeatmapInput, options: HeatmapOptions): HeatmapChart {
  const tr = translator({ language: options.language, timeZone: input.timezone, currency: input.currency });
  const rows = input.rows.slice(0, HEATMAP_MAX_ROWS);
  const more = input.rows.length - rows.length;
  const weekdays = weekdayLabels(tr, input.timezone);
  const to = input.toMs - 1;
  const { title, subtitle: subtitleText } = headings(tr, input);
  const subtitle = wrapText(subtitleText, WIDTH - 2 * PAD, 11.5);
  const top = TOP + (subtitle.length - 1) * SUBTITLE_LINE;
  const empty = rows.length === 0;
  const notesTop = empty ? top + 24 : top + rows.length * BLOCK_H + 8;
  const height = empty ? notesTop + PAD : notesTop + (more > 0 ? 20 : 0) + 28 + PAD;
  const body = [
    svgRect(0, 0, WIDTH, height, "#ffffff"),
    svgText(PAD, 38, fitText(title, WIDTH - 2 * PAD, 18), { size: 18, fill: INK, ...bold(tr) }),
    ...subtitle.map((line, i) => svgText(PAD, 60 + i * SUBTITLE_LINE, line, { size: 11.5, fill: MUTED })),
    ...(empty
      ? [svgText(PAD, top + 16, tr.t("heatmap.empty"), { size: 13, fill: MUTED })]
      : rows.flatMap((row, i) => block(tr, row, weekdays, top + i * BLOCK_H))),
    ...(more > 0
      ? [svgText(PAD, notesTop + 12, tr.t("heatmap.more", { count: more }), { size: 12, fill: MUTED })]
      : []),
    ...(empty ? [] : legend(tr, notesTop + (more > 0 ? 20 : 0) + 12)),
  ];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" ` +
    `viewBox="0 0 ${WIDTH} ${height}" font-family="${fontFamily([...LATIN_FAMILIES, CJK_FAMILY])}">` +
    `${body.join("")}</svg>`;
  return {
    png: renderPng(svg, options.fonts ?? systemChartFonts(), options.logger),
    svg,
    width: WIDTH,
    height,
    rowsShown: rows.length,
    title: input.project === undefined ? tr.t("heatmap.file.title") : title,
    altText: tr.t(input.project === undefined ? "heatmap.alt" : "heatmap.alt.project", {
      hosts: input.rows.length,
      from: input.fromMs,
      to,
      project: input.project ?? "",
    }),
  };
}

/** The title and subtitle: the fleet's, or one project's. */
function headings(tr: Translator, input: HeatmapInput): { title: string; subtitle: string } {
  const range = { from: input.fromMs, to: input.toMs - 1 };
  const subtitle = { zone: input.timezone, weeks: input.weeks };
  if (input.project === undefined) {
    return { title: tr.t("heatmap.title", range), subtitle: tr.t("heatmap.subtitle", subtitle) };
  }
  const project = input.project;
  return {
    title: tr.t("heatmap.title.project", { ...range, project }),
    subtitle: tr.t("heatmap.subtitle.project", { ...subtitle, project }),
  };
}

/** `Mon` … `Sun` in the reader's language: noon of a known Monday and the six days after it, in the zone. */
function weekdayLabels(tr: Translator, zone: string): string[] {
  return Array.from({ length: 7 }, (_, i) =>
    tr.date(localDayStartMs(addDays("2024-01-01", i), zone) + 12 * HOUR_MS, "weekday"),
  );
}

function block(tr: Translator, row: HeatmapRow, weekdays: readonly string[], top: number): string[] {
  const left = PAD + LABEL_WIDTH;
  const name = tr.t("heatmap.host", { host: row.name, gpus: row.gpus });
  const parts = [
    svgText(PAD, top + 18, fitText(name, WIDTH - 2 * PAD, 13), { size: 13, fill: INK, ...bold(tr) }),
  ];
  for (let hour = 0; hour < 24; hour += 3) {
    parts.push(
      svgText(left + hour * CELL_W + 2, top + ROW_GAP - 4, String(hour).padStart(2, "0"), {
        size: 10,
        fill: MUTED,
      }),
    );
  }
  for (let day = 0; day < 7; day++) {
    const y = top + ROW_GAP + day * CELL_H;
    parts.push(svgText(PAD, y + CELL_H - 3, weekdays[day] ?? "", { size: 10.5, fill: MUTED }));
    for (let hour = 0; hour < 24; hour++) {
      const share = row.busyShares[day * 24 + hour] ?? null;
      parts.push(svgRect(left + hour * CELL_W, y, CELL_W - 1, CELL_H - 1, heatColour(share)));
    }
  }
  return parts;
}

function legend(tr: Translator, y: number): string[] {
  const items: Array<[string, string]> = [
    [heatColour(0), tr.t("heatmap.legend.idle")],
    [heatColour(0.5), "50%"],
    [heatColour(1), tr.t("heatmap.legend.busy")],
    [UNKNOWN, tr.t("heatmap.legend.unknown")],
  ];
  return items.flatMap(([colour, label], i) => [
    svgRect(PAD + i * 120, y, 14, 12, colour),
    svgText(PAD + i * 120 + 20, y + 10.5, label, { size: 11.5, fill: INK }),
  ]);
}

// NOTE: resvg's fallback for a missing glyph takes the first face that has it, whatever the weight,
// so bold Chinese text names the CJK family first.
function bold(tr: Translator): Pick<TextStyle, "weight" | "family"> {
  return tr.language === "zh-CN"
    ? { weight: "bold", family: [CJK_FAMILY, ...LATIN_FAMILIES] }
    : { weight: "bold" };
}
