import { VARIANT_EXTENSION, type VariantFormat } from "./media-rules.ts";

// The public address of an image variant (issue 24): /media/<media id>/<width>-<hash>.<ext>. The
// hash is the first 16 hex digits of the SHA-256 of the variant's bytes, so the address names those
// bytes exactly: when they change (a new upload, a new encoder setting) the address changes too, and
// every cache may keep an answer for a year. A restored backup that hands out an id again cannot
// make an old address show a different image.

/** Where the variants are served from; the server gives this prefix the image headers. */
export const MEDIA_PATH_PREFIX = "/media/";
/** Hex digits of the variant's SHA-256 in its address. */
export const URL_HASH_LENGTH = 16;

export function variantUrl(
  mediaId: number,
  variant: { format: VariantFormat; width: number; contentHash: string },
) {
  return `${MEDIA_PATH_PREFIX}${mediaId}/${variant.width}-${variant.contentHash.slice(0, URL_HASH_LENGTH)}.${VARIANT_EXTENSION[variant.format]}`;
}

const FILE_PATTERN = /^([1-9]\d{0,4})-([0-9a-f]{16})\.(avif|webp|jpg|png)$/;
const EXTENSION_FORMAT: Readonly<Record<string, VariantFormat>> = {
  avif: "avif",
  webp: "webp",
  jpg: "jpeg",
  png: "png",
};

export type VariantAddress = { mediaId: number; width: number; hashPrefix: string; format: VariantFormat };

/** The variant an address names (its `:id` and `:file` parts), or null for anything else. */
export function parseVariantAddress(id: string | undefined, file: string | undefined): VariantAddress | null {
  if (!id || !file || !/^[1-9]\d{0,15}$/.test(id)) return null;
  const mediaId = Number(id);
  if (!Number.isSafeInteger(mediaId)) return null;
  const match = FILE_PATTERN.exec(file);
  if (!match) return null;
  const [, width, hashPrefix, extension] = match;
  const format = EXTENSION_FORMAT[extension ?? ""];
  if (!format || !hashPrefix) return null;
  return { mediaId, width: Number(width), hashPrefix, format };
}
