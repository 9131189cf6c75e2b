import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { buildIco, faviconSvg, logoSvg } from "./make-brand-assets.ts";

const publicDir = join(import.meta.dirname, "..", "public");
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The PNG images inside an ICO file, with the size its directory claims for each. */
function icoImages(ico: Buffer) {
  expect(ico.readUInt16LE(0)).toBe(0);
  expect(ico.readUInt16LE(2)).toBe(1);
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const length = ico.readUInt32LE(entry + 8);
    const offset = ico.readUInt32LE(entry + 12);
    return { size: ico.readUInt8(entry) || 256, png: ico.subarray(offset, offset + length) };
  });
}

describe("buildIco", () => {
  test("writes a directory that points at each PNG", () => {
    const a = Buffer.concat([PNG_SIGNATURE, Buffer.from("first")]);
    const b = Buffer.concat([PNG_SIGNATURE, Buffer.from("second image")]);
    const images = icoImages(
      buildIco([
        { size: 32, png: a },
        { size: 16, png: b },
      ]),
    );
    expect(images.map((image) => image.size)).toEqual([32, 16]);
    expect(images[0]?.png.equals(a)).toBe(true);
    expect(images[1]?.png.equals(b)).toBe(true);
  });
});

describe("brand files in public/", () => {
  test("the SVGs on disk are the ones the script writes", () => {
    expect(readFileSync(join(publicDir, "favicon.svg"), "utf8")).toBe(faviconSvg());
    expect(readFileSync(join(publicDir, "logo.svg"), "utf8")).toBe(logoSvg());
  });

  test("favicon.ico holds 32 and 16 pixel PNGs", () => {
    const images = icoImages(readFileSync(join(publicDir, "favicon.ico")));
    expect(images.map(({ size, png }) => [size, pngSize(png)])).toEqual([
      [32, { width: 32, height: 32 }],
      [16, { width: 16, height: 16 }],
    ]);
  });

  test("apple-touch-icon.png is 180x180", () => {
    expect(pngSize(readFileSync(join(publicDir, "apple-touch-icon.png")))).toEqual({
      width: 180,
      height: 180,
    });
  });

  test("og-image.png is 1200x630 and under 100 KB", () => {
    const png = readFileSync(join(publicDir, "og-image.png"));
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    expect(png.length).toBeLessThan(100 * 1024);
  });
});
