import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

/** The brand images the tests upload: made once from drawings, kept beside the tests. */
export const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** base64 of a fixture, as the API takes it. */
export const base64 = (bytes: Buffer): string => bytes.toString('base64');

/** One PNG chunk: length, type, data, CRC. */
export function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG written by hand: greyscale 8-bit `width`×`height`, its IDAT `idat` (default: the right
 * number of zero rows, deflated) and `extra` chunks before it.
 */
export function png(
  width: number,
  height: number,
  options: { idat?: Buffer; extra?: Buffer[] } = {},
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // depth
  ihdr[9] = 0; // greyscale
  const idat = options.idat ?? deflateSync(Buffer.alloc(height * (width + 1)));
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    ...(options.extra ?? []),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
