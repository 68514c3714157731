import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createCanvas } from "../../src/reports/canvas.ts";
import { encodePng, type RgbImage } from "../../src/reports/png.ts";
import { decodePng } from "../helpers/png.ts";

describe("encodePng", () => {
  test("round-trips every pixel of a noisy image through an independent decoder", () => {
    const width = 37;
    const height = 23;
    const pixels = new Uint8Array(width * height * 3);
    let seed = 7;
    for (let i = 0; i < pixels.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      pixels[i] = seed & 0xff;
    }
    const image: RgbImage = { width, height, pixels };
    const decoded = decodePng(encodePng(image));
    assert.deepEqual(decoded.chunkTypes, ["IHDR", "IDAT", "IEND"]);
    assert.equal(decoded.width, width);
    assert.equal(decoded.height, height);
    assert.equal(decoded.bitDepth, 8);
    assert.equal(decoded.colorType, 2);
    assert.deepEqual(decoded.pixels, pixels);
  });

  test("a 1 × 1 image, and a flat 960 × 900 chart-sized one compresses to a few kB", () => {
    assert.deepEqual(
      [...decodePng(encodePng({ width: 1, height: 1, pixels: new Uint8Array([1, 2, 3]) })).pixels],
      [1, 2, 3],
    );
    const canvas = createCanvas(960, 900, [255, 255, 255]);
    canvas.fillRect(10, 10, 100, 50, [214, 96, 77]);
    canvas.text(20, 100, "gpu-a 42%", [0, 0, 0], 2);
    const png = encodePng(canvas);
    assert.ok(png.length < 20_000, `${png.length} bytes`);
    const decoded = decodePng(png);
    const at = (x: number, y: number) => [
      ...decoded.pixels.subarray((y * 960 + x) * 3, (y * 960 + x) * 3 + 3),
    ];
    assert.deepEqual(at(10, 10), [214, 96, 77]);
    assert.deepEqual(at(109, 59), [214, 96, 77]);
    assert.deepEqual(at(110, 60), [255, 255, 255]);
  });

  test("refuses a wrong size or pixel count", () => {
    assert.throws(
      () => encodePng({ width: 0, height: 1, pixels: new Uint8Array(0) }),
      /positive integer size/,
    );
    assert.throws(() => encodePng({ width: 2, height: 2, pixels: new Uint8Array(11) }), /expected 12 bytes/);
  });
});

describe("canvas text", () => {
  test("draws the 5 × 7 glyph of a character where it is asked to", () => {
    const canvas = createCanvas(8, 9, [255, 255, 255]);
    canvas.text(1, 1, "1", [0, 0, 0]);
    const rows: string[] = [];
    for (let y = 1; y < 8; y++) {
      let row = "";
      for (let x = 1; x < 6; x++) row += canvas.pixels[(y * 8 + x) * 3] === 0 ? "#" : ".";
      rows.push(row);
    }
    assert.deepEqual(rows, ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."]);
  });
});
