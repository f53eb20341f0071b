import type { Readable } from 'node:stream';

/** The whole message of an smtp-server DATA stream; null when it went over the announced SIZE. */
export async function readLimited(stream: Readable & { sizeExceeded?: boolean }): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return stream.sizeExceeded ? null : Buffer.concat(chunks);
}
