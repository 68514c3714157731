import { dayjs } from "../shared/time.ts";
import { type Canvas, createCanvas, fitText, type Rgb, textWidth } from "./canvas.ts";
import { encodePng } from "./png.ts";
import { formatMoney } from "./summary-format.ts";
import type { HostRow, SummaryModel } from "./summary-model.ts";

export interface SummaryChart {
  png: Buffer;
  width: number;
  height: number;
  /** Hosts drawn (the ones with the highest idle cost when there are more than fit). */
  hostsShown: number;
  /** For the image's `alt_text`. */
  altText: string;
}

/** At most this many host rows; the rest are in the CSV. */
export const CHART_MAX_HOSTS = 60;

const WIDTH = 960;
const MARGIN = 16;
const LABEL_WIDTH = 132;
const CELL_WIDTH = 30;
const BAR_GAP = 24;
const TITLE_HEIGHT = 40;
const HEADER_HEIGHT = 30;
const LEGEND_HEIGHT = 56;

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [38, 38, 38];
const MUTED: Rgb = [110, 110, 110];
const NO_DATA: Rgb = [222, 222, 222];
const BAR: Rgb = [214, 96, 77];
const GRID: Rgb = [235, 235, 235];

/** Viridis, 0 % (dark purple) to 100 % (yellow). */
const RAMP: readonly Rgb[] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/**
 * The summary chart: a host × day heatmap of mean GPU utilisation (grey: no readings) and, beside
 * each host, a bar of its idle cost (idle GPU-hours when no host has a price), hosts by idle cost.
 */
export function renderSummaryChart(model: SummaryModel): SummaryChart {
  const hosts = model.hosts.slice(0, CHART_MAX_HOSTS);
  const columns = model.dayStartsMs.length;
  const rowHeight = hosts.length <= 20 ? 18 : hosts.length <= 40 ? 14 : 11;
  const heatLeft = MARGIN + LABEL_WIDTH;
  const heatWidth = columns * CELL_WIDTH;
  const barLeft = heatLeft + heatWidth + BAR_GAP;
  const barMax = WIDTH - MARGIN - barLeft - 70;
  const top = MARGIN + TITLE_HEIGHT + HEADER_HEIGHT;
  const footer = model.hosts.length > hosts.length ? 16 : 0;
  const height = top + Math.max(1, hosts.length) * rowHeight + 12 + footer + LEGEND_HEIGHT;
  const canvas = createCanvas(WIDTH, height, WHITE);

  const zone = model.timezone;
  const from = dayjs(model.period.fromMs).tz(zone).format("D MMM");
  const to = dayjs(model.period.toMs - 1)
    .tz(zone)
    .format("D MMM YYYY");
  canvas.text(MARGIN, MARGIN, `GPU utilisation by host and day, ${from} - ${to}`, INK, 2);

  model.dayStartsMs.forEach((startMs, i) => {
    const day = dayjs(startMs).tz(zone);
    const x = heatLeft + i * CELL_WIDTH;
    canvas.text(x + 3, top - 26, day.format("dd"), MUTED);
    canvas.text(x + 3, top - 14, day.format("D"), INK);
  });

  const byCost = hosts.some((host) => (host.idleCost ?? 0) > 0);
  const barValue = (host: HostRow) => (byCost ? (host.idleCost ?? 0) : host.idleGpuHours);
  const largest = Math.max(0, ...hosts.map(barValue));
  canvas.text(barLeft, top - 14, byCost ? `Idle cost (${model.currency})` : "Idle GPU-hours", INK);

  hosts.forEach((host, row) => {
    const y = top + row * rowHeight;
    if (row % 2 === 1) canvas.fillRect(MARGIN, y, LABEL_WIDTH - 6, rowHeight, GRID);
    const labelY = y + Math.floor((rowHeight - 7) / 2);
    canvas.text(MARGIN + 2, labelY, fitText(host.host, LABEL_WIDTH - 10), INK);
    host.dailyUtilPct.forEach((utilPct, i) => {
      canvas.fillRect(
        heatLeft + i * CELL_WIDTH,
        y,
        CELL_WIDTH - 1,
        rowHeight - 1,
        utilPct === null ? NO_DATA : ramp(utilPct),
      );
    });
    const value = barValue(host);
    const length = largest > 0 ? Math.max(value > 0 ? 1 : 0, Math.round((value / largest) * barMax)) : 0;
    canvas.fillRect(barLeft, y + 2, length, rowHeight - 4, BAR);
    const label = byCost
      ? host.idleCost === null
        ? "no price"
        : formatMoney(host.idleCost, model.currency, { symbol: false })
      : host.idleGpuHours.toFixed(0);
    canvas.text(barLeft + length + 4, labelY, label, MUTED);
  });
  if (hosts.length === 0) canvas.text(heatLeft, top + 4, "no data in this period", MUTED);

  let y = top + Math.max(1, hosts.length) * rowHeight + 12;
  if (footer > 0) {
    canvas.text(
      MARGIN,
      y,
      `+ ${model.hosts.length - hosts.length} more hosts with less idle cost: see the CSV`,
      MUTED,
    );
    y += footer;
  }
  drawLegend(canvas, MARGIN, y + 8);

  return {
    png: encodePng(canvas),
    width: WIDTH,
    height,
    hostsShown: hosts.length,
    altText:
      `Heatmap of mean GPU utilisation for ${hosts.length} hosts over ${columns} days ` +
      `(${from} to ${to}), with a bar of each host's ${byCost ? "idle cost" : "idle GPU-hours"}.`,
  };
}

function drawLegend(canvas: Canvas, x: number, y: number): void {
  const width = 200;
  for (let i = 0; i < width; i++) canvas.fillRect(x + i, y, 1, 12, ramp((i / (width - 1)) * 100));
  canvas.text(x, y + 16, "0%", INK);
  canvas.text(x + width / 2 - textWidth("50%") / 2, y + 16, "50%", INK);
  canvas.text(x + width - textWidth("100%"), y + 16, "100%", INK);
  canvas.text(x + width + 12, y + 3, "mean GPU utilisation per day", INK);
  canvas.fillRect(x + width + 200, y, 12, 12, NO_DATA);
  canvas.text(x + width + 218, y + 3, "no readings", INK);
}

/** The colour of a utilisation 0–100 %. */
export function ramp(utilPct: number): Rgb {
  const t = (Math.min(100, Math.max(0, utilPct)) / 100) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(t));
  const f = t - i;
  const a = RAMP[i]!;
  const b = RAMP[i + 1]!;
  return [
    Math.round(a[0] + (b[0] - a[0]) * f),
    Math.round(a[1] + (b[1] - a[1]) * f),
    Math.round(a[2] + (b[2] - a[2]) * f),
  ];
}
