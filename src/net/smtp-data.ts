import type { Readable } from 'node:stream';

/**
 * The whole message of an smtp-server DATA stream, or null when it is larger than `maxBytes`.
 * Bytes are counted as they arrive and nothing is kept once the count passes the limit: the rest
 * is read and dropped up to the final dot, so the client gets its 552 at the end of DATA while the
 * session never holds more than the limit, whatever it sends (twice that while the chunks are joined).
 */
export async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer | null> {
  let chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) chunks = [];
    else chunks.push(chunk as Buffer);
  }
  return size > maxBytes ? null : Buffer.concat(chunks, size);
}
