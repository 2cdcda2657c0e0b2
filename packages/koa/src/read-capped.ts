/**
 * Reads a response body into memory, up to `limit` bytes. Both remote documents this package reads (the
 * issuer's key set, a token response) are small; a larger body is an error, not something to buffer.
 *
 * @example
 * ```ts
 * const bytes = await readCapped(response, 64 * 1024); // throws past 64 KiB, and cancels the stream
 * ```
 */
export async function readCapped(response: Response, limit: number): Promise<Buffer> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new Error(`response body over ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
