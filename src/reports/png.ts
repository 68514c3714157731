import { crc32, deflateSync } from "node:zlib";

/** An RGB image: `pixels` holds `width × height × 3` bytes, row by row, top row first. */
export interface RgbImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOR_TYPE_RGB = 2;
const FILTER_UP = 2;

/**
 * Encodes an RGB image as a PNG (IHDR, one IDAT, IEND; 8 bits per channel, no interlace). Each row
 * uses the Up filter, which turns the flat areas and repeated rows of a chart into zeros that
 * deflate to almost nothing.
 */
export function encodePng(image: RgbImage): Buffer {
  const { width, height, pixels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`a PNG needs a positive integer size, got ${width} × ${height}`);
  }
  const stride = width * 3;
  if (pixels.length !== stride * height) {
    throw new Error(
      `expected ${stride * height} bytes of pixels for ${width} × ${height}, got ${pixels.length}`,
    );
  }
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    const row = y * stride;
    raw[out] = y === 0 ? 0 : FILTER_UP;
    if (y === 0) {
      raw.set(pixels.subarray(row, row + stride), out + 1);
      continue;
    }
    const above = row - stride;
    for (let x = 0; x < stride; x++) raw[out + 1 + x] = (pixels[row + x]! - pixels[above + x]!) & 0xff;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = COLOR_TYPE_RGB;
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 6 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
