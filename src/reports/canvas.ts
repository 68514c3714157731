import { GLYPH_ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from "./bitmap-font.ts";
import type { RgbImage } from "./png.ts";

/** An sRGB colour, each channel 0–255. */
export type Rgb = readonly [r: number, g: number, b: number];

/** A small raster to draw charts on: rectangles and bitmap-font text, clipped to the image. */
export interface Canvas extends RgbImage {
  fillRect(x: number, y: number, width: number, height: number, color: Rgb): void;
  /** Draws `text` with its top-left corner at (x, y); `scale` enlarges each font pixel. */
  text(x: number, y: number, text: string, color: Rgb, scale?: number): void;
}

export function createCanvas(width: number, height: number, background: Rgb): Canvas {
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    pixels[i] = background[0];
    pixels[i + 1] = background[1];
    pixels[i + 2] = background[2];
  }
  const fillRect = (x: number, y: number, w: number, h: number, color: Rgb) => {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(width, Math.round(x + w));
    const y1 = Math.min(height, Math.round(y + h));
    for (let row = y0; row < y1; row++) {
      for (let col = x0; col < x1; col++) {
        const i = (row * width + col) * 3;
        pixels[i] = color[0];
        pixels[i + 1] = color[1];
        pixels[i + 2] = color[2];
      }
    }
  };
  return {
    width,
    height,
    pixels,
    fillRect,
    text(x, y, text, color, scale = 1) {
      let cursor = x;
      for (const char of text) {
        const rows = glyphRows(char);
        for (let row = 0; row < GLYPH_HEIGHT; row++) {
          const bits = rows[row]!;
          if (bits === 0) continue;
          for (let col = 0; col < GLYPH_WIDTH; col++) {
            if ((bits >> (GLYPH_WIDTH - 1 - col)) & 1) {
              fillRect(cursor + col * scale, y + row * scale, scale, scale, color);
            }
          }
        }
        cursor += GLYPH_ADVANCE * scale;
      }
    },
  };
}

/** Width in pixels of `text` drawn at `scale` (without the trailing spacing column). */
export function textWidth(text: string, scale = 1): number {
  const chars = [...text].length;
  return chars === 0 ? 0 : (chars * GLYPH_ADVANCE - 1) * scale;
}

/** Cuts `text` to fit `maxPx` at `scale`, ending with `..` when cut. */
export function fitText(text: string, maxPx: number, scale = 1): string {
  if (textWidth(text, scale) <= maxPx) return text;
  const chars = [...text];
  let keep = Math.max(0, Math.floor((maxPx / scale + 1) / GLYPH_ADVANCE) - 2);
  while (keep > 0 && textWidth(`${chars.slice(0, keep).join("")}..`, scale) > maxPx) keep--;
  return `${chars.slice(0, keep).join("")}..`;
}
