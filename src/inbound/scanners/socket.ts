import { createConnection, type NetConnectOpts } from 'node:net';

/** `host:port` or a unix socket path, as the scanner settings take them. */
export function scannerTarget(address: string): NetConnectOpts {
  if (address.startsWith('/')) return { path: address };
  const colon = address.lastIndexOf(':');
  return { host: address.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(address.slice(colon + 1)) };
}

/** Writes the request, reads until the scanner closes the connection; bounded in time and size. */
export function exchange(address: string, request: Buffer[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(scannerTarget(address));
    const chunks: Buffer[] = [];
    let size = 0;
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`scanner at ${address} timed out`)));
    socket.on('connect', () => {
      for (const part of request) socket.write(part);
      socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 64 * 1024) socket.destroy(new Error('scanner answer too long'));
      else chunks.push(chunk);
    });
    socket.on('error', reject);
    socket.on('close', (hadError) => {
      if (!hadError) resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}
