import { MEDIA_MESSAGES, type MediaType } from "./media-rules.ts";

// An upload's type is read from its first bytes, never from its name or the Content-Type the client
// sent (issue 24): both are the uploader's word. Only the four types the decoder is trusted with pass;
// SVG (a document that can carry scripts) and HEIC (no decoder here) get messages of their own.

export type SniffedType = { ok: true; type: MediaType } | { ok: false; message: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** ISO base media file brands of AVIF (still and sequence). */
const AVIF_BRANDS = new Set(["avif", "avis"]);
/** HEIF brands whose images are HEVC (iPhone photos), not AV1. */
const HEIC_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]);
/** How far into a text file an `<svg` root is looked for (an XML prolog and comments come first). */
const SVG_SCAN_BYTES = 4096;

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** The brands of an ISO base media file's leading `ftyp` box (major and compatible), or null. */
function ftypBrands(bytes: Uint8Array): string[] | null {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== "ftyp") return null;
  const size = ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
  // A real ftyp box lists a handful of brands; a bounded read whatever the size field says.
  if (size < 16 || size > bytes.length || size > 1024) return null;
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands;
}

/** True when the bytes read as text whose root element is `<svg` (an XML prolog, comments or a doctype may come first). */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const text = new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(0, SVG_SCAN_BYTES))
    .replace(/^\uFEFF/, "")
    .trimStart();
  return text.startsWith("<") && /<svg[\s>/]/i.test(text);
}

/** The upload's type from its magic bytes, or the message that refuses it. */
export function sniffImageType(bytes: Uint8Array): SniffedType {
  if (bytes.length === 0) return { ok: false, message: MEDIA_MESSAGES.empty };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ok: true, type: "jpeg" };
  if (startsWith(bytes, PNG_SIGNATURE)) return { ok: true, type: "png" };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP")
    return { ok: true, type: "webp" };
  const brands = ftypBrands(bytes);
  if (brands?.some((brand) => AVIF_BRANDS.has(brand))) return { ok: true, type: "avif" };
  if (brands?.some((brand) => HEIC_BRANDS.has(brand))) return { ok: false, message: MEDIA_MESSAGES.heic };
  if (looksLikeSvg(bytes)) return { ok: false, message: MEDIA_MESSAGES.svg };
  return { ok: false, message: MEDIA_MESSAGES.notAnImage };
}
