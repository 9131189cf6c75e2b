import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { createImageProcessor, ImageBusyError, type ProcessOutcome } from "./image-worker.server.ts";
import {
  decompressionBomb,
  exifBlock,
  jpegWithExif,
  makeImage,
  makeNoise,
  POLYGLOT_HTML,
  pngHeaderClaiming,
  pngWithExif,
  zipArchive,
} from "./testing/image-fixtures.ts";

// Issue 24: uploads decoded in a worker thread with limits. Real images, made by sharp, and hostile
// files built byte by byte; every variant checked with sharp as a browser would get it.

const processor = createImageProcessor({ maxWaiting: 8 });

type Variants = Extract<ProcessOutcome, { ok: true }>["variants"];

function accepted(outcome: ProcessOutcome) {
  if (!outcome.ok) throw new Error(`refused: ${outcome.reason} ${"detail" in outcome ? outcome.detail : ""}`);
  return outcome;
}

/** What sharp reads back from every variant: its real format and size, and any metadata left. */
async function inspect(variants: Variants) {
  return Promise.all(
    variants.map(async (variant) => {
      const meta = await sharp(variant.bytes).metadata();
      return {
        format: meta.format === "heif" ? "avif" : meta.format,
        width: meta.width,
        height: meta.height,
        exif: meta.exif,
        xmp: meta.xmp,
        iptc: meta.iptc,
        icc: meta.icc,
        orientation: meta.orientation,
      };
    }),
  );
}

/** True when a file's container accounts for every byte (no data hidden after the image). */
function endsWhereItsStructureEnds(format: string, bytes: Buffer): boolean {
  if (format === "jpeg") return bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9;
  if (format === "png") return bytes.subarray(-12, -4).toString("latin1") === "\0\0\0\0IEND";
  if (format === "webp") return bytes.readUInt32LE(4) + 8 === bytes.length;
  // AVIF: top-level ISO boxes, each starting with its size, cover the file exactly.
  let at = 0;
  while (at + 8 <= bytes.length) {
    const size = bytes.readUInt32BE(at);
    if (size < 8) return false;
    at += size;
  }
  return at === bytes.length;
}

afterAll(async () => {
  // Let the last worker end before the file's process does.
  for (let waited = 0; processor.load().running > 0 && waited < 10_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
});

describe("image processing in a child process", () => {
  it("makes AVIF, WebP and JPEG variants at 480, 960, 1440 and 1920 px from a large photo", async () => {
    const result = accepted(
      await processor.process(await makeImage("jpeg", { width: 2400, height: 1600 }), "jpeg"),
    );
    expect({ width: result.width, height: result.height, hasAlpha: result.hasAlpha }).toEqual({
      width: 2400,
      height: 1600,
      hasAlpha: false,
    });
    const read = await inspect(result.variants);
    expect(read.map(({ format, width, height }) => `${format} ${width}x${height}`).sort()).toEqual(
      [
        "avif 480x320",
        "avif 960x640",
        "avif 1440x960",
        "avif 1920x1280",
        "webp 480x320",
        "webp 960x640",
        "webp 1440x960",
        "webp 1920x1280",
        "jpeg 480x320",
        "jpeg 960x640",
        "jpeg 1440x960",
        "jpeg 1920x1280",
      ].sort(),
    );
    // Each is what it says it is.
    for (const [i, variant] of result.variants.entries()) expect(read[i]?.format).toBe(variant.format);
  });

  it("never enlarges: a 600 px image gets a 480 px variant and itself; a 500 px one only itself", async () => {
    const six = accepted(await processor.process(await makeImage("png", { width: 600, height: 400 }), "png"));
    expect([...new Set(six.variants.map((variant) => variant.width))]).toEqual([480, 600]);
    const five = accepted(
      await processor.process(await makeImage("webp", { width: 500, height: 300 }), "webp"),
    );
    expect([...new Set(five.variants.map((variant) => variant.width))]).toEqual([500]);
    expect(new Set(five.variants.map((variant) => variant.format))).toEqual(
      new Set(["avif", "webp", "jpeg"]),
    );
  });

  it("keeps transparency with a PNG fallback, and drops an alpha channel that is opaque everywhere", async () => {
    const clear = accepted(
      await processor.process(await makeImage("png", { width: 300, height: 200, alpha: true }), "png"),
    );
    expect(clear.hasAlpha).toBe(true);
    expect(clear.variants.map((variant) => variant.format).sort()).toEqual(["avif", "png", "webp"]);
    expect((await sharp(clear.variants.find((v) => v.format === "png")?.bytes).metadata()).hasAlpha).toBe(
      true,
    );
    const opaque = await sharp({
      create: { width: 300, height: 200, channels: 4, background: { r: 10, g: 80, b: 160, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const flat = accepted(await processor.process(opaque, "png"));
    expect(flat.hasAlpha).toBe(false);
    expect(flat.variants.map((variant) => variant.format).sort()).toEqual(["avif", "jpeg", "webp"]);
  });

  it("takes AVIF uploads", async () => {
    const result = accepted(
      await processor.process(await makeImage("avif", { width: 640, height: 480 }), "avif"),
    );
    expect(result.variants.length).toBe(6);
  });

  it("keeps the first frame of an animated WebP, and says so", async () => {
    const frames = await Promise.all(
      ["#c0392b", "#27ae60", "#2980b9"].map((background) =>
        sharp({ create: { width: 200, height: 100, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const animated = await sharp(frames, { join: { animated: true } })
      .webp({ delay: [100, 100, 100] })
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(3);
    const result = accepted(await processor.process(animated, "webp"));
    expect({ width: result.width, height: result.height, notices: result.notices }).toEqual({
      width: 200,
      height: 100,
      notices: ["animation"],
    });
    for (const variant of await inspect(result.variants)) expect(variant.height).toBe(100);
  });

  it("turns a photo upright by its EXIF orientation and strips the location and every other metadata", async () => {
    const png = await makeImage("png", { width: 800, height: 600 });
    const withGps = pngWithExif(
      png,
      exifBlock({ gps: true, orientation: 6, description: "Home, 12 Secret Lane" }),
    );
    expect((await sharp(withGps).metadata()).orientation).toBe(6);
    const result = accepted(await processor.process(withGps, "png"));
    // Orientation 6 is a quarter turn: the 800 × 600 sensor image is a 600 × 800 portrait.
    expect({ width: result.width, height: result.height }).toEqual({ width: 600, height: 800 });
    expect(result.notices).toEqual(["location", "metadata"]);
    const read = await inspect(result.variants);
    for (const variant of read) {
      expect(variant.height).toBeGreaterThan(variant.width ?? 0);
      expect(variant).toMatchObject({ exif: undefined, xmp: undefined, iptc: undefined, icc: undefined });
      expect([undefined, 1]).toContain(variant.orientation);
    }
    for (const variant of result.variants)
      expect(Buffer.from(variant.bytes).includes("Secret Lane")).toBe(false);
  });

  it("strips a camera JPEG's EXIF, XMP and ICC profile, converting its colours to sRGB", async () => {
    const p3 = await sharp(await makeImage("jpeg", { width: 700, height: 500 }))
      .withIccProfile("p3")
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Jo Photographer</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>',
      )
      .jpeg()
      .toBuffer();
    const camera = jpegWithExif(p3, exifBlock({ gps: true, description: "Taken at the client's site" }));
    const before = await sharp(camera).metadata();
    expect([Boolean(before.exif), Boolean(before.xmp), Boolean(before.icc)]).toEqual([true, true, true]);
    const result = accepted(await processor.process(camera, "jpeg"));
    expect(result.notices).toEqual(["location", "metadata"]);
    for (const variant of await inspect(result.variants))
      expect(variant).toMatchObject({ exif: undefined, xmp: undefined, icc: undefined });
    for (const variant of result.variants)
      expect(Buffer.from(variant.bytes).includes("Jo Photographer")).toBe(false);
  });

  it("sanitises a 1 MB EXIF block (accepted, every byte of it dropped, and said so)", async () => {
    const bloated = pngWithExif(
      await makeImage("png", { width: 400, height: 300 }),
      exifBlock({ description: "A".repeat(1024 * 1024) }),
    );
    expect(bloated.length).toBeGreaterThan(1024 * 1024);
    const result = accepted(await processor.process(bloated, "png"));
    expect(result.notices).toEqual(["metadata"]);
    for (const variant of result.variants) expect(variant.bytes.byteLength).toBeLessThan(100_000);
    for (const variant of await inspect(result.variants)) expect(variant.exif).toBeUndefined();
  });

  it("refuses a PNG whose header claims 50,000 × 50,000 pixels before decoding any of it", async () => {
    expect(await processor.process(pngHeaderClaiming(50_000, 50_000), "png")).toEqual({
      ok: false,
      reason: "tooManyPixels",
    });
  });

  it("refuses a decompression bomb: 60 KB that would decode to 1.2 GB", async () => {
    const bomb = decompressionBomb();
    expect(bomb.length).toBeLessThan(200_000);
    expect(await processor.process(bomb, "png")).toEqual({ ok: false, reason: "tooManyPixels" });
  });

  it("refuses truncated and corrupt files as damaged", async () => {
    const jpeg = await makeImage("jpeg", { width: 800, height: 600 });
    expect(await processor.process(jpeg.subarray(0, Math.floor(jpeg.length / 2)), "jpeg")).toMatchObject({
      ok: false,
      reason: "damaged",
    });
    const png = await makeImage("png", { width: 800, height: 600 });
    expect(await processor.process(png.subarray(0, png.length - 100), "png")).toMatchObject({
      ok: false,
      reason: "damaged",
    });
    const avif = Buffer.concat([
      (await makeImage("avif", { width: 64, height: 64 })).subarray(0, 40),
      Buffer.alloc(200),
    ]);
    expect(await processor.process(avif, "avif")).toMatchObject({ ok: false, reason: "damaged" });
  });

  it("refuses bytes whose decoder disagrees with their signature", async () => {
    const jpeg = await makeImage("jpeg", { width: 64, height: 64 });
    expect(await processor.process(jpeg, "png")).toEqual({ ok: false, reason: "notAnImage" });
  });

  it("re-encodes polyglots: an image followed by HTML, a JPEG that is also a ZIP, serve none of it", async () => {
    const pngHtml = Buffer.concat([
      await makeImage("png", { width: 500, height: 400 }),
      Buffer.from(POLYGLOT_HTML),
    ]);
    const jpegZip = Buffer.concat([await makeImage("jpeg", { width: 500, height: 400 }), zipArchive()]);
    for (const [bytes, type] of [
      [pngHtml, "png"],
      [jpegZip, "jpeg"],
    ] as const) {
      // The check below catches what a polyglot hides after its image.
      expect(endsWhereItsStructureEnds(type, bytes)).toBe(false);
      const result = accepted(await processor.process(bytes, type));
      for (const variant of result.variants) {
        const served = Buffer.from(variant.bytes);
        expect(served.includes("<script")).toBe(false);
        expect(served.includes(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(false);
        // Nothing after the image: each file ends where its own structure says it does.
        expect(endsWhereItsStructureEnds(variant.format, served)).toBe(true);
      }
    }
  });

  it("keeps the event loop free while it works on a costly image: a 50 ms timer keeps ticking", async () => {
    const hostile = await makeNoise(1400, 1000);
    const gaps: number[] = [];
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 50);
    const started = performance.now();
    try {
      accepted(await processor.process(hostile, "png"));
    } finally {
      clearInterval(ticker);
    }
    const took = performance.now() - started;
    // Loose on purpose (a busy 2-core machine): the timer ran all along, never stalled for a second.
    expect(took).toBeGreaterThan(250);
    expect(gaps.length).toBeGreaterThan(took / 50 / 4);
    expect(Math.max(...gaps)).toBeLessThan(1000);
  }, 60_000);
});

describe("the processor's bounds", () => {
  it("refuses an image past its time budget at once, and holds the slot until its process has ended", async () => {
    const slow = createImageProcessor({ budgetMs: 1 });
    const outcome = await slow.process(await makeImage("jpeg", { width: 2000, height: 1500 }), "jpeg");
    expect(outcome).toEqual({ ok: false, reason: "tooSlow" });
    await expect.poll(() => slow.load().running, { timeout: 15_000 }).toBe(0);
  });

  it("lets one image run and a few wait; beyond that it says it is busy", async () => {
    const small = createImageProcessor({ maxRunning: 1, maxWaiting: 1 });
    const image = await makeImage("jpeg", { width: 900, height: 600 });
    const first = small.process(image, "jpeg");
    const second = small.process(image, "jpeg");
    expect(small.load()).toEqual({ running: 1, waiting: 1 });
    await expect(small.process(image, "jpeg")).rejects.toBeInstanceOf(ImageBusyError);
    expect((await first).ok).toBe(true);
    expect((await second).ok).toBe(true);
    await expect.poll(() => small.load(), { timeout: 10_000 }).toEqual({ running: 0, waiting: 0 });
  });
});
