// What the media library accepts and makes (issue 24, ADR 024), in one place: the upload route, the
// worker, the tests and the docs read these. Shared with the browser (no secret): the editor can say
// the limits before a file is sent.

/** The largest file accepted, in bytes. */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/** The most pixels (width × height) an image may have; checked from its header before decoding. */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** Longest alt text, in characters: screen readers read it whole. */
export const MEDIA_ALT_MAX_CHARS = 300;
/**
 * The widths made for `srcset`: an article column (480, 960 at 2x) and a cover image up to a wide
 * screen at 1x or a laptop at 2x. Never wider than the image itself.
 */
export const MEDIA_VARIANT_WIDTHS = [480, 960, 1440, 1920] as const;
/**
 * No variant is taller than this: a very tall image gets narrower variants, so no variant holds more
 * than 1920 × 3840 pixels whatever the input, and the work per upload is bounded.
 */
export const MEDIA_MAX_VARIANT_HEIGHT = 3840;

/** The four types accepted, read from a file's first bytes (image-type.ts). */
export const MEDIA_TYPES = ["jpeg", "png", "webp", "avif"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
export const MEDIA_MIME: Readonly<Record<MediaType, string>> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
};

/** What the variants are encoded as: AVIF and WebP for browsers that take them, JPEG (PNG with alpha) for the rest. */
export const VARIANT_FORMATS = ["avif", "webp", "jpeg", "png"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];
export const VARIANT_MIME: Readonly<Record<VariantFormat, string>> = {
  avif: "image/avif",
  webp: "image/webp",
  jpeg: "image/jpeg",
  png: "image/png",
};
/** The file extension in a variant's URL. */
export const VARIANT_EXTENSION: Readonly<Record<VariantFormat, string>> = {
  avif: "avif",
  webp: "webp",
  jpeg: "jpg",
  png: "png",
};

/** Every refusal's message, as the person uploading reads it. */
export const MEDIA_MESSAGES = {
  notAnImage: "This file is not a JPEG, PNG, WebP or AVIF image.",
  svg: "SVG images are not accepted: they can carry scripts. Export the image as PNG or JPEG and upload that.",
  heic: "HEIC photos are not accepted. Export the photo as JPEG (on an iPhone: Settings › Camera › Formats › Most Compatible) and upload that.",
  tooLarge: `Images must be ${MEDIA_MAX_BYTES / 1024 / 1024} MB or smaller.`,
  tooManyPixels: `This image is larger than ${MEDIA_MAX_PIXELS / 1_000_000} megapixels.`,
  damaged: "This image file is damaged or incomplete. Export it again and upload the new file.",
  tooSlow: "This image took too long to process. Try a smaller image.",
  tooComplex: "This image needs too much memory to process. Try a smaller image.",
  empty: "Choose an image to upload.",
  busy: "Other images are being processed. Please try again in a few seconds.",
  alt: `Alt text must be plain text of ${MEDIA_ALT_MAX_CHARS} characters or fewer.`,
} as const;

/** What an upload tells the person about what was removed or changed (a clear word, not a refusal). */
export const MEDIA_NOTICES = {
  location: "The location where the photo was taken (GPS) was removed.",
  metadata: "Camera and editing details (EXIF, XMP, IPTC) were removed.",
  animation: "Only the first frame of the animation is kept.",
} as const;
