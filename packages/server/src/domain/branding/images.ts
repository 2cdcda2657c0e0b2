import { createHash } from 'node:crypto';
import { crc32, inflateSync } from 'node:zlib';
import { fail } from '../errors.js';

/**
 * A brand's images (logo, favicon), checked before anything stores them (DESIGN §21,
 * docs/branding.md): PNG, JPEG or WebP told by their bytes (never by what the uploader declared;
 * SVG and everything else refused), at most 256 KB, at most 2048 pixels a side. Each format is
 * walked to its end: its structure, its dimensions from its header, nothing after its end marker.
 * Metadata where text or markup hides (PNG text chunks, JPEG comments and APP segments but JFIF, ICC
 * and Adobe, WebP EXIF and XMP) is dropped, so what is stored is the picture and what a browser
 * needs to show it; a PNG's pixel data is inflated, bounded by the size its header implies, so a
 * file that claims small dimensions cannot inflate to more. The stored bytes are named by their
 * SHA-256.
 */

export const MAX_IMAGE_BYTES = 256 * 1024;
export const MAX_IMAGE_SIDE = 2048;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/** The extension an image is served under, by type. */
export const EXTENSIONS: Readonly<Record<ImageType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export interface CheckedImage {
  mediaType: ImageType;
  width: number;
  height: number;
  /** What is stored and served: the upload less its metadata. */
  bytes: Buffer;
  /** Hex SHA-256 of `bytes`: the image's name in its URL. */
  sha256: string;
}

type Refuse = (why: string) => never;

/** Markup that would make the bytes read as a page or a script if anything ever sniffed them. */
const MARKUP = /<(?:\?xml|!doctype|html|head|body|script|svg|iframe|object|embed)\b|javascript:/i;

function sides(refuse: Refuse, width: number, height: number) {
  if (width < 1 || height < 1) refuse('its header gives no size');
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE)
    refuse(`it is ${width}×${height} pixels; at most ${MAX_IMAGE_SIDE} a side`);
  return { width, height };
}

// ---- PNG (ISO/IEC 15948) ----

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The chunks kept: the critical ones, transparency and colour. Text, EXIF, animation are not. */
const PNG_KEPT = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'pHYs',
  'bKGD',
]);
const PNG_CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/** The bytes of a PNG's filtered scanlines: per row a filter byte and the row's packed samples. */
function pngRawSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) =>
    w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8));
  if (!interlaced) return rows(width, height);
  // Adam7: seven passes, each a sub-image of every n-th pixel from an offset.
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ] as const;
  return passes.reduce(
    (sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)),
    0,
  );
}

function checkPng(data: Buffer, refuse: Refuse): Omit<CheckedImage, 'sha256'> {
  const kept: Buffer[] = [PNG_SIGNATURE];
  const idat: Buffer[] = [];
  let at = 8;
  let size: { width: number; height: number } | null = null;
  let bitsPerPixel = 0;
  let interlaced = false;
  let ended = false;
  while (!ended) {
    if (at + 12 > data.length) refuse('it ends before its IEND chunk');
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) refuse('it has a chunk that is not PNG');
    const end = at + 12 + length;
    if (end > data.length) refuse(`its ${type} chunk runs past the end of the file`);
    const body = data.subarray(at + 8, at + 8 + length);
    if (crc32(data.subarray(at + 4, at + 8 + length)) !== data.readUInt32BE(at + 8 + length))
      refuse(`its ${type} chunk fails its checksum`);
    if (size === null && type !== 'IHDR') refuse('its first chunk is not IHDR');
    if (type === 'IHDR') {
      if (size !== null || length !== 13) refuse('its IHDR chunk is malformed');
      const colourType = body[9] ?? -1;
      const depth = body[8] ?? -1;
      if (!(PNG_DEPTHS[colourType] ?? []).includes(depth))
        refuse('its IHDR names an impossible colour type or depth');
      if (body[10] !== 0 || body[11] !== 0 || (body[12] !== 0 && body[12] !== 1))
        refuse('its IHDR names an unknown compression, filter or interlace method');
      size = sides(refuse, body.readUInt32BE(0), body.readUInt32BE(4));
      bitsPerPixel = depth * (PNG_CHANNELS[colourType] ?? 0);
      interlaced = body[12] === 1;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') {
      if (length !== 0) refuse('its IEND chunk is not empty');
      ended = true;
    } else if (type === 'acTL' || type === 'fcTL' || type === 'fdAT')
      refuse('animated PNGs are not accepted');
    else if (/^[A-Z]/.test(type) && !PNG_KEPT.has(type)) refuse(`it has an unknown critical chunk ${type}`);
    if (PNG_KEPT.has(type)) kept.push(data.subarray(at, end));
    at = end;
  }
  if (at !== data.length) refuse('it has bytes after its IEND chunk');
  if (size === null || idat.length === 0) refuse('it has no image data');
  const expected = pngRawSize(size.width, size.height, bitsPerPixel, interlaced);
  let raw: Buffer;
  try {
    // One byte more than the header allows: a stream that inflates to more is refused, never inflated further.
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    return refuse('its image data does not inflate to the size its header gives');
  }
  if (raw.length !== expected) refuse('its image data does not inflate to the size its header gives');
  return { mediaType: 'image/png', ...size, bytes: Buffer.concat(kept) };
}

// ---- JPEG (ITU T.81, JFIF) ----

/** Start-of-frame markers: baseline, extended, progressive, lossless (not DHT C4, JPG C8, DAC CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
/** APP segments kept: JFIF (APP0), ICC profile (APP2), Adobe colour transform (APP14). */
const JPEG_KEPT_APP = new Set([0xe0, 0xe2, 0xee]);

function checkJpeg(data: Buffer, refuse: Refuse): Omit<CheckedImage, 'sha256'> {
  const kept: Buffer[] = [data.subarray(0, 2)];
  let at = 2;
  let size: { width: number; height: number } | null = null;
  for (;;) {
    if (at + 4 > data.length || data[at] !== 0xff) refuse('its segments are malformed');
    const marker = data[at + 1] ?? 0;
    if (
      marker === 0xd9 ||
      marker === 0xd8 ||
      (marker >= 0xd0 && marker <= 0xd7) ||
      marker === 0x01 ||
      marker === 0xff
    )
      refuse('its segments are malformed');
    const length = data.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > data.length) refuse('a segment runs past the end of the file');
    const segment = data.subarray(at, at + 2 + length);
    if (SOF.has(marker)) {
      if (size !== null || length < 8) refuse('it has more than one frame, or a malformed one');
      size = sides(refuse, segment.readUInt16BE(7), segment.readUInt16BE(5));
    }
    const isApp = marker >= 0xe0 && marker <= 0xef;
    if (!(marker === 0xfe || (isApp && !JPEG_KEPT_APP.has(marker)))) kept.push(segment);
    at += 2 + length;
    if (marker === 0xda) break;
  }
  if (size === null) refuse('it has no frame header before its scan');
  // Entropy-coded data: 0xFF is followed by 0x00 (a stuffed byte), a restart marker, or, for progressive
  // files, further tables and scans; the image ends at EOI, which must be the file's last two bytes.
  const scanStart = at;
  for (;;) {
    const ff = data.indexOf(0xff, at);
    if (ff < 0 || ff + 1 >= data.length) refuse('it ends without its end-of-image marker');
    const next = data[ff + 1] ?? 0;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
      at = ff + (next === 0xff ? 1 : 2);
      continue;
    }
    if (next === 0xd9) {
      if (ff + 2 !== data.length) refuse('it has bytes after its end-of-image marker');
      kept.push(data.subarray(scanStart, ff + 2));
      break;
    }
    // A marker between scans (progressive JPEG): a length-prefixed segment.
    if (ff + 4 > data.length) refuse('its segments are malformed');
    const length = data.readUInt16BE(ff + 2);
    if (length < 2 || ff + 2 + length > data.length) refuse('a segment runs past the end of the file');
    if (next === 0xfe || (next >= 0xe0 && next <= 0xef)) refuse('it has metadata between its scans');
    if (SOF.has(next)) refuse('it has more than one frame, or a malformed one');
    at = ff + 2 + length;
  }
  return { mediaType: 'image/jpeg', ...size, bytes: Buffer.concat(kept) };
}

// ---- WebP (RFC 9649) ----

const WEBP_KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ICCP']);

function checkWebp(data: Buffer, refuse: Refuse): Omit<CheckedImage, 'sha256'> {
  const riffSize = data.readUInt32LE(4);
  if (riffSize + 8 !== data.length) refuse('its RIFF size does not match the file (bytes after its end?)');
  const kept: Buffer[] = [];
  let at = 12;
  let size: { width: number; height: number } | null = null;
  let extended: Buffer | null = null;
  let bitstream = false;
  while (at < data.length) {
    if (at + 8 > data.length) refuse('a chunk header runs past the end of the file');
    const type = data.toString('latin1', at, at + 4);
    const length = data.readUInt32LE(at + 4);
    const end = at + 8 + length + (length % 2);
    if (end > data.length) refuse(`its ${type} chunk runs past the end of the file`);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'ANIM' || type === 'ANMF') refuse('animated WebP images are not accepted');
    if (type === 'VP8X') {
      if (at !== 12 || length < 10) refuse('its VP8X chunk is malformed');
      extended = Buffer.from(data.subarray(at, end));
      // Drop the EXIF and XMP flags: those chunks are not kept.
      extended[8] = (extended[8] ?? 0) & ~0x0c;
      if ((extended[8] ?? 0) & 0x02) refuse('animated WebP images are not accepted');
      size = sides(refuse, body.readUIntLE(4, 3) + 1, body.readUIntLE(7, 3) + 1);
      kept.push(extended);
    } else {
      if (type === 'VP8 ' || type === 'VP8L') {
        if (bitstream) refuse('it has more than one image bitstream');
        bitstream = true;
        let own: { width: number; height: number };
        if (type === 'VP8 ') {
          // Frame tag (3 bytes, a key frame), start code 9d 01 2a, then 14-bit width and height.
          if (
            length < 10 ||
            ((body[0] ?? 1) & 1) !== 0 ||
            body[3] !== 0x9d ||
            body[4] !== 0x01 ||
            body[5] !== 0x2a
          )
            refuse('its VP8 bitstream header is malformed');
          own = sides(refuse, body.readUInt16LE(6) & 0x3fff, body.readUInt16LE(8) & 0x3fff);
        } else {
          if (length < 5 || body[0] !== 0x2f) refuse('its VP8L bitstream header is malformed');
          const bits = body.readUInt32LE(1);
          own = sides(refuse, (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
          if (bits >>> 29 !== 0) refuse('its VP8L bitstream header is malformed');
        }
        if (size === null) size = own;
        else if (own.width > size.width || own.height > size.height)
          refuse('its bitstream is larger than its canvas');
      } else if (
        !WEBP_KEPT.has(type) &&
        type !== 'EXIF' &&
        type !== 'XMP ' &&
        !/^[A-Za-z0-9 ]{4}$/.test(type)
      ) {
        refuse('it has a chunk that is not WebP');
      }
      if (WEBP_KEPT.has(type)) kept.push(data.subarray(at, end));
    }
    at = end;
  }
  if (!bitstream || size === null) refuse('it has no image bitstream');
  const chunks = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(chunks.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return { mediaType: 'image/webp', ...size, bytes: Buffer.concat([header, chunks]) };
}

/**
 * `data` as a brand image for `field`, or a refusal naming the field and why: its type told by its
 * first bytes, then its format walked to the end (checkPng, checkJpeg, checkWebp).
 */
export function checkImage(field: string, data: Buffer): CheckedImage {
  const refuse: Refuse = (why) => fail('branding.image.invalid', `${field}: ${why}`);
  if (data.length === 0) refuse('the image is empty');
  if (data.length > MAX_IMAGE_BYTES)
    return fail(
      'branding.image.too_large',
      `${field}: ${data.length} bytes; at most ${MAX_IMAGE_BYTES} (256 KB)`,
    );
  let checked: Omit<CheckedImage, 'sha256'>;
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) checked = checkPng(data, refuse);
  else if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff)
    checked = checkJpeg(data, refuse);
  else if (
    data.length >= 16 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WEBP'
  )
    checked = checkWebp(data, refuse);
  else
    return fail(
      'branding.image.type',
      `${field}: not a PNG, JPEG or WebP image (told by its bytes; SVG and other types are not accepted)`,
    );
  if (MARKUP.test(checked.bytes.toString('latin1'))) refuse('it carries markup or a script address');
  return { ...checked, sha256: createHash('sha256').update(checked.bytes).digest('hex') };
}
