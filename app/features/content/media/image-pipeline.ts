import type sharpModule from "sharp";
import type { exifHasGps as ExifHasGps } from "./exif-gps.ts";
import type { MEDIA_NOTICES, MediaType, VariantFormat } from "./media-rules.ts";

// What happens to an uploaded image, from its bytes to the variants that are served (issue 24, ADR
// 024). It runs inside a worker thread (image-worker.server.ts sends this function's source there),
// so it is one self-contained function: everything it uses arrives through its parameters.
//
// 1. The header only: the format must be the one the magic bytes named (HEIC passes as "heif" in
//    libvips, so AVIF is checked to be AV1), and width × height within the pixel limit, before a
//    single pixel is decoded: a 50,000 × 50,000 PNG is refused here, in milliseconds.
// 2. One decode: oriented by its EXIF orientation, converted to sRGB (through its ICC profile) with
//    8 bits a channel, and shrunk to fit the largest variant (1920 × 3840) — raw pixels every
//    variant is then made from, so a large original is decoded once, not once per variant.
// 3. Each variant encoded afresh from those pixels: no byte of the upload (trailing HTML or a ZIP in
//    a polyglot, EXIF, GPS, XMP, IPTC, ICC profiles, comments) reaches a served file.
// Decoding stops on corrupt or truncated data (failOn "error"). Every libvips step carries what is
// left of the time budget; the worker's own deadline stops the rest.

export type PipelineLimits = {
  maxPixels: number;
  widths: readonly number[];
  maxHeight: number;
  /** Epoch milliseconds after which the work is abandoned. */
  deadlineAt: number;
};

export type PipelineTools = { sharp: typeof sharpModule; exifHasGps: typeof ExifHasGps };

export type PipelineVariant = { format: VariantFormat; width: number; height: number; bytes: Uint8Array };

export type PipelineRefusal = "notAnImage" | "tooManyPixels" | "damaged" | "tooSlow";

export type PipelineResult =
  | {
      ok: true;
      /** As displayed, after the EXIF orientation. */
      width: number;
      height: number;
      hasAlpha: boolean;
      notices: (keyof typeof MEDIA_NOTICES)[];
      variants: PipelineVariant[];
    }
  | { ok: false; reason: PipelineRefusal; detail?: string };

/** Turns an upload into its variants, or says why it cannot. Never throws for a bad image. */
export async function processImage(
  tools: PipelineTools,
  input: Uint8Array,
  expected: MediaType,
  limits: PipelineLimits,
): Promise<PipelineResult> {
  const { sharp, exifHasGps } = tools;
  const secondsLeft = () => Math.max(1, Math.ceil((limits.deadlineAt - Date.now()) / 1000));
  const refusalFor = (error: unknown): PipelineResult => {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) return { ok: false, reason: "tooManyPixels" };
    if (/timeout/i.test(message)) return { ok: false, reason: "tooSlow" };
    return { ok: false, reason: "damaged", detail: message.slice(0, 200) };
  };

  // 1. The header.
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    // Reading the header decodes no pixels, so the pixel limit is checked below with its own message.
    meta = await sharp(input, { limitInputPixels: false, failOn: "error" }).metadata();
  } catch (error) {
    return refusalFor(error);
  }
  const format =
    meta.format === "heif" ? (meta.compression === "av1" ? "avif" : "heic") : (meta.format as string);
  if (format !== expected) return { ok: false, reason: "notAnImage" };
  if (!meta.width || !meta.height) return { ok: false, reason: "damaged" };
  if (meta.width * meta.height > limits.maxPixels) return { ok: false, reason: "tooManyPixels" };
  const notices: (keyof typeof MEDIA_NOTICES)[] = [];
  if (meta.exif && exifHasGps(meta.exif)) notices.push("location");
  if (meta.exif || meta.xmp || meta.iptc) notices.push("metadata");
  if ((meta.pages ?? 1) > 1) notices.push("animation");

  // 2. One decode, to the pixels of the largest variant.
  const largest = Math.max(...limits.widths);
  let base: { data: Uint8Array; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
  try {
    base = await sharp(input, {
      limitInputPixels: limits.maxPixels,
      failOn: "error",
      autoOrient: true,
      sequentialRead: true,
    })
      .timeout({ seconds: secondsLeft() })
      .resize({ width: largest, height: limits.maxHeight, fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    return refusalFor(error);
  }
  const raw = () => ({
    raw: { width: base.info.width, height: base.info.height, channels: base.info.channels },
  });
  // An alpha channel that is opaque everywhere is dropped: a photo saved as RGBA gets a JPEG fallback.
  let hasAlpha = base.info.channels === 4 || base.info.channels === 2;
  if (hasAlpha) {
    const { isOpaque } = await sharp(base.data, raw()).stats();
    if (isOpaque) {
      const opaque = await sharp(base.data, raw()).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      base = opaque as typeof base;
      hasAlpha = false;
    }
  }

  // 3. The variants: each width below the image's own (one within 10% of it adds nothing), then the
  // image at its largest size; AVIF, WebP, and a JPEG (PNG with transparency) every browser shows.
  const fullWidth = base.info.width;
  const widths = [...limits.widths.filter((width) => width <= fullWidth * 0.9), fullWidth];
  const formats: VariantFormat[] = ["avif", "webp", hasAlpha ? "png" : "jpeg"];
  const variants: PipelineVariant[] = [];
  for (const width of widths) {
    for (const variantFormat of formats) {
      if (Date.now() > limits.deadlineAt) return { ok: false, reason: "tooSlow" };
      let pipeline = sharp(base.data, raw()).timeout({ seconds: secondsLeft() });
      if (width !== fullWidth) pipeline = pipeline.resize({ width });
      // AVIF at effort 2: effort 4 (the default) took ten times as long for little gain. The JPEG
      // is the fallback few browsers still take: libjpeg-turbo's plain encoder, not mozjpeg's
      // trellis search (30 times slower on a hostile image, for a fifth fewer bytes). ADR 024.
      const encoder =
        variantFormat === "avif"
          ? pipeline.avif({ quality: 55, effort: 2 })
          : variantFormat === "webp"
            ? pipeline.webp({ quality: 78 })
            : variantFormat === "jpeg"
              ? pipeline.jpeg({ quality: 80 })
              : pipeline.png({ compressionLevel: 9, adaptiveFiltering: true });
      try {
        const { data, info } = await encoder.toBuffer({ resolveWithObject: true });
        variants.push({ format: variantFormat, width: info.width, height: info.height, bytes: data });
      } catch (error) {
        return refusalFor(error);
      }
    }
  }
  const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
  return { ok: true, width: oriented.width, height: oriented.height, hasAlpha, notices, variants };
}
