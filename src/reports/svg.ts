/** Small builders for the SVG documents charts are drawn as. Every text goes through {@link escapeXml}. */

/** Text content or an attribute value, safe inside XML. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface TextStyle {
  size: number;
  fill: string;
  weight?: "bold";
  anchor?: "start" | "middle" | "end";
  /** A `font-family` list for this text only. */
  family?: readonly string[];
}

/** A `<text>` whose baseline starts (or, by `anchor`, ends or centres) at (x, y). */
export function svgText(x: number, y: number, text: string, style: TextStyle): string {
  const weight = style.weight === undefined ? "" : ` font-weight="${style.weight}"`;
  const anchor = style.anchor === undefined ? "" : ` text-anchor="${style.anchor}"`;
  const family = style.family === undefined ? "" : ` font-family="${fontFamily(style.family)}"`;
  return `<text x="${px(x)}" y="${px(y)}" font-size="${style.size}" fill="${style.fill}"${weight}${anchor}${family}>${escapeXml(text)}</text>`;
}

export function svgRect(
  x: number,
  y: number,
  width: number,
  height: number,
  fill: string,
  extra = "",
): string {
  return `<rect x="${px(x)}" y="${px(y)}" width="${px(width)}" height="${px(height)}" fill="${fill}"${extra}/>`;
}

export function svgLine(x1: number, y1: number, x2: number, y2: number, stroke: string): string {
  return `<line x1="${px(x1)}" y1="${px(y1)}" x2="${px(x2)}" y2="${px(y2)}" stroke="${stroke}" stroke-width="1"/>`;
}

/**
 * About how wide `text` is at `size` px in DejaVu Sans or Noto Sans CJK: an estimate for fitting
 * labels (CJK and full-width characters one em, capitals and digits 0.68 em, the rest 0.56 em).
 */
export function textWidthPx(text: string, size: number): number {
  let em = 0;
  for (const char of text) {
    if (/[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/u.test(char)) em += 1;
    else if (/[A-Z0-9%€¥$@#&mwMW]/.test(char)) em += 0.68;
    else if (/[il.,:;'|!\s]/.test(char)) em += 0.32;
    else em += 0.56;
  }
  return em * size;
}

/** `text`, cut and ended with `…` so that it is at most `maxPx` wide at `size`. */
export function fitText(text: string, maxPx: number, size: number): string {
  if (textWidthPx(text, size) <= maxPx) return text;
  const chars = [...text];
  let keep = chars.length;
  while (keep > 0 && textWidthPx(`${chars.slice(0, keep).join("")}…`, size) > maxPx) keep--;
  return `${chars.slice(0, keep).join("")}…`;
}

/**
 * `text` in lines at most `maxPx` wide at `size`, broken between words (and between CJK characters),
 * at most `maxLines` of them: the last is cut with `…` when the text is longer still.
 */
export function wrapText(text: string, maxPx: number, size: number, maxLines = 3): string[] {
  const pieces =
    text.match(/[\u2e80-\u9fff\uff00-\uffef][\s]*|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*|\s+/gu) ?? [];
  const lines: string[] = [];
  let line = "";
  for (const piece of pieces) {
    const closing = /^[，。、；：！？）》」』】]/u.test(piece);
    if (line !== "" && !closing && textWidthPx((line + piece).trimEnd(), size) > maxPx) {
      lines.push(line.trimEnd());
      line = piece.trimStart();
    } else {
      line += piece;
    }
  }
  if (line.trim() !== "") lines.push(line.trimEnd());
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fitText(`${kept[maxLines - 1]} ${lines.slice(maxLines).join(" ")}`, maxPx, size);
  return kept;
}

/** A `font-family` attribute value: each family quoted. */
export function fontFamily(families: readonly string[]): string {
  return families.map((family) => `'${family}'`).join(", ");
}

/** A coordinate with at most one decimal. */
function px(value: number): string {
  return String(Math.round(value * 10) / 10);
}
