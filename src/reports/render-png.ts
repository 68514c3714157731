import { Resvg } from "@resvg/resvg-js";
import type { Logger } from "../shared/logger.ts";
import { type ChartFonts, FONT_CANDIDATES, fontFilesFor, LATIN_FAMILIES } from "./chart-fonts.ts";

const warned = new Set<string>();

/**
 * Renders an SVG document to a PNG with resvg, text drawn with exactly the fonts given (system fonts
 * are not searched, so the same input gives the same pixels everywhere); the CJK font is loaded
 * only when the SVG has a character that needs it. A missing font is logged once per process,
 * naming the files looked for; the chart is drawn regardless, its glyphs as empty boxes.
 */
export function renderPng(svg: string, fonts: ChartFonts, logger?: Pick<Logger, "warn">): Buffer {
  const { files, missing } = fontFilesFor(fonts, svg);
  const fresh = missing.filter((kind) => !warned.has(kind));
  if (fresh.length > 0 && logger !== undefined) {
    for (const kind of fresh) warned.add(kind);
    logger.warn(
      { missing: fresh, lookedFor: fresh.flatMap((kind) => FONT_CANDIDATES[kind]) },
      fresh.some((kind) => kind.startsWith("cjk"))
        ? "no CJK font for charts: Chinese text is drawn as empty boxes (install fonts-noto-cjk)"
        : "no Latin font for charts: Latin text is drawn with the CJK font if there is one (install fonts-dejavu-core)",
    );
  }
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: files, defaultFontFamily: LATIN_FAMILIES[0] },
  });
  return resvg.render().asPng();
}
