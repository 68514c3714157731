import { Resvg } from "@resvg/resvg-js";
import type { OutcomeSummary } from "./outcome-table.ts";

/** The fonts the chart is drawn with, loaded explicitly (never whatever the system has). */
export const CHART_FONTS = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
];

const WIDTH = 900;
const ROW = 54;
const LEFT = 190;
const RIGHT = 170;
/** Room after the longest bar for its figure. */
const LABEL = 70;
const TOP = 70;

const xmlEscape = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * Horizontal bars: per policy its total cost, with the idle part of it darker; on the right its
 * false stops and work lost. One SVG, no scripts, DejaVu Sans.
 */
export function outcomeSvg(summary: OutcomeSummary): string {
  const entries = Object.entries(summary.policies);
  const maxCost = Math.max(...entries.map(([, f]) => f.total_cost));
  const plotWidth = WIDTH - LEFT - RIGHT - LABEL;
  const height = TOP + entries.length * ROW + 50;
  const scale = (value: number) => (value / maxCost) * plotWidth;
  const money = (value: number) => `${Math.round(value).toLocaleString("en-US")}`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="DejaVu Sans">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="20" y="30" font-size="18" font-weight="bold" fill="#111">${xmlEscape(`A simulated month: cost per policy (${summary.currency})`)}</text>`,
    `<rect x="${LEFT}" y="42" width="14" height="14" fill="#c0392b"/><text x="${LEFT + 20}" y="54" font-size="13" fill="#333">idle (on, every GPU idle)</text>`,
    `<rect x="${LEFT + 220}" y="42" width="14" height="14" fill="#95a5a6"/><text x="${LEFT + 240}" y="54" font-size="13" fill="#333">rest of the total</text>`,
    `<text x="${WIDTH - RIGHT + 12}" y="54" font-size="13" fill="#333">false stops · work lost</text>`,
  ];
  entries.forEach(([name, f], i) => {
    const y = TOP + i * ROW;
    const total = scale(f.total_cost);
    const idle = scale(f.idle_cost);
    parts.push(
      `<text x="${LEFT - 10}" y="${y + 22}" font-size="14" text-anchor="end" fill="#111">${xmlEscape(name)}</text>`,
      `<rect x="${LEFT}" y="${y + 6}" width="${total.toFixed(1)}" height="24" fill="#95a5a6"/>`,
      `<rect x="${LEFT}" y="${y + 6}" width="${idle.toFixed(1)}" height="24" fill="#c0392b"/>`,
      `<text x="${LEFT + total + 6}" y="${y + 23}" font-size="12" fill="#111">${money(f.total_cost)}</text>`,
      `<text x="${LEFT + 4}" y="${y + 45}" font-size="11" fill="#c0392b">${xmlEscape(`idle ${money(f.idle_cost)}`)}</text>`,
      `<text x="${WIDTH - RIGHT + 12}" y="${y + 23}" font-size="13" fill="${f.false_stops > 0 ? "#c0392b" : "#1e8449"}">${f.false_stops} · ${f.work_lost_gpu_hours.toFixed(0)} GPU-h</text>`,
    );
  });
  parts.push(
    `<text x="20" y="${height - 14}" font-size="11" fill="#555">${xmlEscape(`${summary.days} days, seed ${summary.seed}, 4 hosts × 8 GPUs, 6 people. npm run bench -- waste --write-docs`)}</text>`,
    "</svg>",
  );
  return parts.join("\n");
}

/** The chart as PNG bytes. */
export function outcomePng(summary: OutcomeSummary): Buffer {
  const resvg = new Resvg(outcomeSvg(summary), {
    font: { loadSystemFonts: false, fontFiles: CHART_FONTS, defaultFontFamily: "DejaVu Sans" },
  });
  return resvg.render().asPng();
}
