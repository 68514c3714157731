import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  chunkTypes: string[];
  channels: number;
  pixels: Uint8Array;
}

/**
 * An independent PNG reader for 8-bit RGB or RGBA, non-interlaced images: checks the signature, every
 * chunk's CRC-32 (bitwise, not zlib's), inflates the IDATs and undoes all five row filters.
 * `pixels` holds `channels` bytes a pixel (3 for RGB, 4 for RGBA).
 */
export function decodePng(png: Buffer): DecodedPng {
  assert.deepEqual(
    [...png.subarray(0, 8)],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    "PNG signature",
  );
  let offset = 8;
  const chunkTypes: string[] = [];
  const idat: Buffer[] = [];
  let header: Buffer | null = null;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    assert.equal(crc, crc32(png.subarray(offset + 4, offset + 8 + length)), `CRC of ${type}`);
    chunkTypes.push(type);
    if (type === "IHDR") header = Buffer.from(data);
    if (type === "IDAT") idat.push(Buffer.from(data));
    offset += 12 + length;
  }
  assert.equal(offset, png.length, "chunks end at the end of the file");
  assert.ok(header !== null, "an IHDR");
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const bitDepth = header[8]!;
  const colorType = header[9]!;
  assert.equal(header[12], 0, "not interlaced");
  assert.equal(bitDepth, 8, "8 bits a channel");
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  assert.ok(channels > 0, `colour type ${colorType} is RGB or RGBA`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  assert.equal(raw.length, (stride + 1) * height, "one filter byte and a row of pixels per line");
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      assert.ok(predictor !== undefined, `filter type ${filter}`);
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, bitDepth, colorType, chunkTypes, channels, pixels };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
