import { describe, expect, it } from "vitest";
import { exifHasGps } from "./exif-gps.ts";
import { exifBlock } from "./testing/image-fixtures.ts";

describe("exifHasGps", () => {
  it("finds the GPS IFD of a block with or without JPEG's Exif header", () => {
    const gps = exifBlock({ gps: true, orientation: 6 });
    expect(exifHasGps(gps)).toBe(true);
    expect(exifHasGps(Buffer.concat([Buffer.from("Exif\0\0", "latin1"), gps]))).toBe(true);
    expect(exifHasGps(exifBlock({ description: "A camera", orientation: 1 }))).toBe(false);
  });

  it("reads big-endian blocks too", () => {
    // A Motorola-order block: header, one IFD0 entry (the GPS pointer), no next IFD.
    const block = Buffer.alloc(8 + 2 + 12 + 4);
    block.write("MM", 0, "latin1");
    block.writeUInt16BE(42, 2);
    block.writeUInt32BE(8, 4);
    block.writeUInt16BE(1, 8);
    block.writeUInt16BE(0x8825, 10);
    expect(exifHasGps(block)).toBe(true);
  });

  it("answers false, never throws, for blocks that lie about their offsets and counts", () => {
    const lying = exifBlock({ gps: true });
    lying.writeUInt32LE(0xfffffff0, 4);
    expect(exifHasGps(lying)).toBe(false);
    const tooMany = exifBlock({});
    tooMany.writeUInt16LE(0xffff, 8);
    expect(exifHasGps(tooMany)).toBe(false);
    for (const bytes of [
      new Uint8Array(),
      Buffer.from("Exif\0\0"),
      Buffer.from("IIxx12345678"),
      Buffer.from("junk"),
    ])
      expect(exifHasGps(bytes)).toBe(false);
  });
});
