import { deflateSync } from "node:zlib";
import sharp from "sharp";

// Test only (issue 24): real images made by sharp, and the hostile files the media library must
// refuse or neutralise, built byte by byte where sharp would not write them (a GPS EXIF block, a
// 1 MB EXIF, a PNG header claiming 50,000 × 50,000, a polyglot). Each is a valid file of its kind
// up to the point where it is meant not to be.

/** A photo-like JPEG, PNG, WebP or AVIF: a smooth gradient (so encoders have something to do). */
export async function makeImage(
  format: "jpeg" | "png" | "webp" | "avif",
  { width = 1200, height = 800, alpha = false }: { width?: number; height?: number; alpha?: boolean } = {},
): Promise<Buffer> {
  const channels = alpha ? 4 : 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 128;
      if (alpha) pixels[at + 3] = x < width / 2 ? 255 : 64;
    }
  return sharp(pixels, { raw: { width, height, channels } }).toFormat(format).toBuffer();
}

/** Random pixels: the costliest content for every encoder (the event-loop test's hostile image). */
export async function makeNoise(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 4) pixels.writeUInt32LE((Math.random() * 0x100000000) >>> 0, i);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * An EXIF block (a little-endian TIFF structure): an ImageDescription of `description`, an
 * Orientation, and with `gps` a GPS IFD placing the photo at 51°30'12.34" N.
 */
export function exifBlock({
  description = "",
  orientation = 1,
  gps = false,
}: {
  description?: string;
  orientation?: number;
  gps?: boolean;
}): Buffer {
  const text = Buffer.from(`${description}\0`, "latin1");
  const ifd0Entries = gps ? 3 : 2;
  const ifd0Size = 2 + ifd0Entries * 12 + 4;
  const gpsIfdAt = 8 + ifd0Size;
  const gpsIfdSize = gps ? 2 + 2 * 12 + 4 : 0;
  const latitudeAt = gpsIfdAt + gpsIfdSize;
  const textAt = latitudeAt + (gps ? 24 : 0);
  const block = Buffer.alloc(textAt + text.length);
  block.write("II", 0, "latin1");
  block.writeUInt16LE(42, 2);
  block.writeUInt32LE(8, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    block.writeUInt16LE(tag, at);
    block.writeUInt16LE(type, at + 2);
    block.writeUInt32LE(count, at + 4);
    block.writeUInt32LE(value, at + 8);
  };
  block.writeUInt16LE(ifd0Entries, 8);
  entry(10, 0x010e, 2, text.length, textAt);
  entry(22, 0x0112, 3, 1, orientation);
  if (gps) {
    entry(34, 0x8825, 4, 1, gpsIfdAt);
    block.writeUInt16LE(2, gpsIfdAt);
    entry(gpsIfdAt + 2, 0x0001, 2, 2, 0x4e); // GPSLatitudeRef "N"
    entry(gpsIfdAt + 14, 0x0002, 5, 3, latitudeAt); // GPSLatitude, three rationals
    [51, 1, 30, 1, 1234, 100].forEach((value, i) => {
      block.writeUInt32LE(value, latitudeAt + i * 4);
    });
  }
  text.copy(block, textAt);
  return block;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `png` with an eXIf chunk after its header (PNG 1.5's place for EXIF; no size limit). */
export function pngWithExif(png: Buffer, exif: Buffer): Buffer {
  // The signature (8) and the IHDR chunk (25) come first.
  return Buffer.concat([png.subarray(0, 33), pngChunk("eXIf", exif), png.subarray(33)]);
}

/** `jpeg` with an APP1 Exif segment right after its start marker, as a camera writes it. */
export function jpegWithExif(jpeg: Buffer, exif: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), exif]);
  const marker = Buffer.alloc(4);
  marker.writeUInt16BE(0xffe1, 0);
  marker.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), marker, payload, jpeg.subarray(2)]);
}

/**
 * A complete, valid PNG of `width` × `height` black pixels, 1 bit each: a few kilobytes that a
 * decoder would inflate to width × height / 8 bytes, and to 3 bytes a pixel once decoded
 * (20,000 × 20,000: about 60 KB on disk, 1.2 GB decoded).
 */
export function decompressionBomb(width = 20_000, height = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  const rows = Buffer.alloc(row.length * height);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A PNG whose header claims `width` × `height` (RGB) with almost no pixel data behind it. */
export function pngHeaderClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.alloc(1 + width * 3))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export const POLYGLOT_HTML = "<html><body><script>alert(document.cookie)</script></body></html>";

/** A ZIP archive (stored, one file `index.html` holding POLYGLOT_HTML). */
export function zipArchive(): Buffer {
  const name = Buffer.from("index.html");
  const data = Buffer.from(POLYGLOT_HTML);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralAt = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

export const SVG_WITH_SCRIPT = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a logo -->
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <rect width="100" height="100" fill="#336699"/>
</svg>
`;

/** The start of an iPhone photo: an ISO base media `ftyp` box with HEIC brands. */
export function heicHeader(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write("ftypheic", 4, "latin1");
  box.write("mif1heic", 16, "latin1");
  return Buffer.concat([box, Buffer.alloc(64)]);
}
