/**
 * A 5 × 7 pixel font for chart labels: ASCII letters, digits and a little punctuation. Each glyph
 * is seven rows, top first, two hex digits a row; bit 4 is the leftmost of the five columns.
 * Characters without a glyph draw as `?`.
 */
export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;
/** Horizontal advance per character, one column of spacing included. */
export const GLYPH_ADVANCE = 6;

const GLYPHS: Readonly<Record<string, string>> = {
  "0": "0e11131519110e",
  "1": "040c040404040e",
  "2": "0e11010204081f",
  "3": "1f02040201110e",
  "4": "02060a121f0202",
  "5": "1f101e0101110e",
  "6": "0608101e11110e",
  "7": "1f010204080808",
  "8": "0e11110e11110e",
  "9": "0e11110f01020c",
  A: "0e11111f111111",
  B: "1e11111e11111e",
  C: "0e11101010110e",
  D: "1c12111111121c",
  E: "1f10101e10101f",
  F: "1f10101e101010",
  G: "0e11101711110f",
  H: "1111111f111111",
  I: "0e04040404040e",
  J: "0702020202120c",
  K: "11121418141211",
  L: "1010101010101f",
  M: "111b1515111111",
  N: "11111915131111",
  O: "0e11111111110e",
  P: "1e11111e101010",
  Q: "0e11111115120d",
  R: "1e11111e141211",
  S: "0f10100e01011e",
  T: "1f040404040404",
  U: "1111111111110e",
  V: "11111111110a04",
  W: "1111111515150a",
  X: "11110a040a1111",
  Y: "11110a04040404",
  Z: "1f01020408101f",
  a: "00000e010f110f",
  b: "1010161911111e",
  c: "00000e1010110e",
  d: "01010d1311110f",
  e: "00000e111f100e",
  f: "0609081c080808",
  g: "000f110f01110e",
  h: "10101619111111",
  i: "04000c0404040e",
  j: "0200060202120c",
  k: "10101214181412",
  l: "0c04040404040e",
  m: "00001a15151111",
  n: "00001619111111",
  o: "00000e1111110e",
  p: "00001e111e1010",
  q: "00000d130f0101",
  r: "00001619101010",
  s: "00000e100e011e",
  t: "08081c08080906",
  u: "0000111111130d",
  v: "00001111110a04",
  w: "0000111115150a",
  x: "0000110a040a11",
  y: "000011110f010e",
  z: "00001f0204081f",
  ".": "00000000000c0c",
  ",": "000000000c0408",
  "-": "0000000e000000",
  _: "0000000000001f",
  ":": "000c0c000c0c00",
  "%": "18190204081303",
  "/": "00010204081000",
  "(": "02040808080402",
  ")": "08040202020408",
  "+": "0004041f040400",
  "=": "00001f001f0000",
  "'": "04040800000000",
  "?": "0e110102040004",
  "!": "04040404040004",
  "<": "02040810080402",
  ">": "08040201020408",
};

const decoded = new Map<string, readonly number[]>();

/** The seven row bitmasks of `char` (`?` for characters the font lacks; none for a space). */
export function glyphRows(char: string): readonly number[] {
  if (char === " ") return EMPTY;
  const cached = decoded.get(char);
  if (cached !== undefined) return cached;
  const hex = GLYPHS[char] ?? GLYPHS["?"]!;
  const rows = Array.from({ length: GLYPH_HEIGHT }, (_, i) =>
    Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16),
  );
  decoded.set(char, rows);
  return rows;
}

const EMPTY: readonly number[] = [0, 0, 0, 0, 0, 0, 0];
