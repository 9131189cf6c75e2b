import { describe, expect, it } from "vitest";
import { sniffImageType } from "./image-type.ts";
import { MEDIA_MESSAGES } from "./media-rules.ts";
import {
  heicHeader,
  makeImage,
  POLYGLOT_HTML,
  pngHeaderClaiming,
  SVG_WITH_SCRIPT,
  zipArchive,
} from "./testing/image-fixtures.ts";

// Issue 24: an upload's type comes from its bytes, never its name or the client's Content-Type.
describe("sniffImageType", () => {
  it.each(["jpeg", "png", "webp", "avif"] as const)("recognises a %s made by sharp", async (format) => {
    expect(sniffImageType(await makeImage(format, { width: 40, height: 30 }))).toEqual({
      ok: true,
      type: format,
    });
  });

  it("refuses SVG, whatever comes before its root, with its own message", () => {
    const refusal = { ok: false, message: MEDIA_MESSAGES.svg };
    expect(sniffImageType(Buffer.from(SVG_WITH_SCRIPT))).toEqual(refusal);
    expect(sniffImageType(Buffer.from(`\uFEFF  \n<svg viewBox="0 0 1 1"></svg>`))).toEqual(refusal);
    expect(sniffImageType(Buffer.from(`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><svg/>`))).toEqual(
      refusal,
    );
  });

  it("refuses HEIC photos with a way to export them", () => {
    expect(sniffImageType(heicHeader())).toEqual({ ok: false, message: MEDIA_MESSAGES.heic });
  });

  it("refuses what is not one of the four types, whatever it is called", async () => {
    const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1");
    const tiff = await (await import("sharp"))
      .default(await makeImage("png", { width: 8, height: 8 }))
      .tiff()
      .toBuffer();
    for (const bytes of [
      Buffer.from(POLYGLOT_HTML),
      // HTML first, an image after it: the first bytes decide.
      Buffer.concat([Buffer.from(POLYGLOT_HTML), await makeImage("png", { width: 8, height: 8 })]),
      zipArchive(),
      gif,
      tiff,
      Buffer.from("%PDF-1.7\n"),
      Buffer.from("just text"),
      Buffer.from([0xff, 0xd8]),
    ])
      expect(sniffImageType(bytes)).toEqual({ ok: false, message: MEDIA_MESSAGES.notAnImage });
  });

  it("asks for a file when there are no bytes", () => {
    expect(sniffImageType(new Uint8Array())).toEqual({ ok: false, message: MEDIA_MESSAGES.empty });
  });

  it("names a file by its signature alone: the decoder checks the rest (a huge header is a PNG here)", () => {
    expect(sniffImageType(pngHeaderClaiming(50_000, 50_000))).toEqual({ ok: true, type: "png" });
  });

  it("reads an ftyp box's brands within its declared size only", () => {
    const box = Buffer.alloc(32);
    box.writeUInt32BE(16, 0);
    box.write("ftypmif1", 4, "latin1");
    // "avif" after the box's end is not one of its brands.
    box.write("avif", 16, "latin1");
    expect(sniffImageType(box)).toEqual({ ok: false, message: MEDIA_MESSAGES.notAnImage });
    const lying = Buffer.from(box);
    lying.writeUInt32BE(0xffffffff, 0);
    expect(sniffImageType(lying)).toEqual({ ok: false, message: MEDIA_MESSAGES.notAnImage });
  });
});
