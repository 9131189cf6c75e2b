// Whether an image's EXIF block says where the photo was taken, so the upload can tell the person
// that the location was removed (every variant drops all metadata anyway). Runs inside the image
// worker (image-worker.server.ts sends its source), so it is one self-contained function.

/**
 * True when the EXIF block (a TIFF structure, after an optional `Exif\0\0` header as JPEG carries it)
 * has a GPS IFD pointer (tag 0x8825) in its first IFD. Every read is bounds-checked: the block is
 * the uploader's.
 */
export function exifHasGps(exif: Uint8Array): boolean {
  const view = new DataView(exif.buffer, exif.byteOffset, exif.byteLength);
  const header =
    exif.length >= 6 &&
    exif[0] === 0x45 &&
    exif[1] === 0x78 &&
    exif[2] === 0x69 &&
    exif[3] === 0x66 &&
    exif[4] === 0 &&
    exif[5] === 0
      ? 6
      : 0;
  if (exif.length < header + 8) return false;
  const order = view.getUint16(header);
  if (order !== 0x4949 && order !== 0x4d4d) return false;
  const little = order === 0x4949;
  if (view.getUint16(header + 2, little) !== 42) return false;
  const ifd = header + view.getUint32(header + 4, little);
  if (ifd + 2 > exif.length) return false;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > exif.length) return false;
    if (view.getUint16(entry, little) === 0x8825) return true;
  }
  return false;
}
