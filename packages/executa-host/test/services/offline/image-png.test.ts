import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pngSize, solidPng, syntheticImageSize } from "../../../src/services/offline/image-png.js";

/** Splits a PNG into its chunks, checking each CRC against node:zlib's. */
function chunks(png: Buffer): { type: string; data: Buffer }[] {
  const out: { type: string; data: Buffer }[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const typed = png.subarray(offset + 4, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typed));
    out.push({ type: typed.toString("latin1", 0, 4), data: Buffer.from(typed.subarray(4)) });
    offset += 12 + length;
  }
  expect(offset).toBe(png.length);
  return out;
}

describe("solidPng", () => {
  it("writes IHDR, one IDAT and IEND with valid CRCs and one colour in every pixel", () => {
    const png = solidPng(3, 2, { r: 10, g: 20, b: 30 });
    const parts = chunks(png);
    expect(parts.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    expect([...(parts[0]?.data ?? [])]).toEqual([0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
    const raw = inflateSync(parts[1]?.data ?? Buffer.alloc(0));
    const row = [0, 10, 20, 30, 10, 20, 30, 10, 20, 30];
    expect([...raw]).toEqual([...row, ...row]);
    expect(pngSize(png)).toEqual({ width: 3, height: 2 });
  });

  it("is byte-identical for the same input and differs by colour", () => {
    const a = solidPng(64, 64, { r: 1, g: 2, b: 3 });
    expect(a.equals(solidPng(64, 64, { r: 1, g: 2, b: 3 }))).toBe(true);
    expect(a.equals(solidPng(64, 64, { r: 1, g: 2, b: 4 }))).toBe(false);
  });

  it("stays small at the largest synthetic size", () => {
    expect(solidPng(256, 256, { r: 200, g: 100, b: 0 }).length).toBeLessThan(2048);
  });

  it("refuses sizes that are not positive integers", () => {
    expect(() => solidPng(0, 1, { r: 0, g: 0, b: 0 })).toThrow(RangeError);
    expect(() => solidPng(1.5, 1, { r: 0, g: 0, b: 0 })).toThrow(RangeError);
  });

  it("pngSize answers undefined for bytes that are not a PNG", () => {
    expect(pngSize(Buffer.from("GIF89a and more bytes to be long"))).toBeUndefined();
  });
});

describe("syntheticImageSize", () => {
  it("fits the requested size into 256 px, keeping the aspect ratio", () => {
    expect(syntheticImageSize(1024, 1024)).toEqual({ width: 256, height: 256 });
    expect(syntheticImageSize(1792, 1024)).toEqual({ width: 256, height: 146 });
    expect(syntheticImageSize(4096, 64)).toEqual({ width: 256, height: 4 });
    expect(syntheticImageSize(100, 50)).toEqual({ width: 100, height: 50 });
    expect(syntheticImageSize(1, 4096)).toEqual({ width: 1, height: 256 });
  });
});
