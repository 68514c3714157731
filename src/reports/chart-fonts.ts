import { existsSync } from "node:fs";

/**
 * The font files charts are drawn with, found on the system by path. Charts load exactly these
 * (never the system's whole font list), so a chart looks the same on every machine that has them.
 * `null`: not installed. On Debian and Ubuntu: `fonts-dejavu-core` (Latin; `fonts-liberation2` also
 * does) and `fonts-noto-cjk` (Chinese, Japanese, Korean).
 */
export interface ChartFonts {
  sans: string | null;
  sansBold: string | null;
  cjk: string | null;
  cjkBold: string | null;
}

/** The families the files above hold, in the order a chart asks for them. */
export const LATIN_FAMILIES = ["DejaVu Sans", "Liberation Sans"] as const; // words-ok: font family names
export const CJK_FAMILY = "Noto Sans CJK SC"; // words-ok: a font family name

/** Where Debian (and its derivatives), Fedora and Arch put the fonts, first found wins. */
export const FONT_CANDIDATES: Readonly<Record<keyof ChartFonts, readonly string[]>> = {
  sans: [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
  ],
  sansBold: [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
  ],
  cjk: [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
  ],
  cjkBold: [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
  ],
};

/** The first existing file of each kind. */
export function findChartFonts(
  candidates: Readonly<Record<keyof ChartFonts, readonly string[]>> = FONT_CANDIDATES,
  exists: (path: string) => boolean = existsSync,
): ChartFonts {
  const first = (kind: keyof ChartFonts) => candidates[kind].find((path) => exists(path)) ?? null;
  return { sans: first("sans"), sansBold: first("sansBold"), cjk: first("cjk"), cjkBold: first("cjkBold") };
}

let systemFonts: ChartFonts | null = null;

/** {@link findChartFonts} on this machine, looked up once. */
export function systemChartFonts(): ChartFonts {
  systemFonts ??= findChartFonts();
  return systemFonts;
}

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** True when `text` has a character only a CJK font draws (Han, kana, hangul, full-width forms). */
export function needsCjkFont(text: string): boolean {
  return CJK.test(text);
}

/**
 * The files to load for a chart whose text is `text` (the large CJK collection only when a character
 * needs it or when there is no Latin font), and the kinds of font it needs that are missing: the
 * chart is still drawn, without the glyphs those fonts would have given.
 */
export function fontFilesFor(
  fonts: ChartFonts,
  text: string,
): { files: string[]; missing: (keyof ChartFonts)[] } {
  const needed: (keyof ChartFonts)[] = ["sans", "sansBold"];
  // NOTE: Noto Sans CJK has Latin glyphs too, so it stands in for a missing Latin font.
  if (needsCjkFont(text) || fonts.sans === null) needed.push("cjk", "cjkBold");
  const files: string[] = [];
  const missing: (keyof ChartFonts)[] = [];
  for (const kind of needed) {
    const file = fonts[kind];
    if (file === null) missing.push(kind);
    else files.push(file);
  }
  return { files, missing };
}
