import { createServer, type Server } from 'node:net';

export interface FakeScanner {
  address: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<FakeScanner> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { address: `127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * A loopback stand-in for spamd speaking SPAMC/1.5 (CHECK and SYMBOLS): a message containing
 * `SPAM-MARKER` is spam (rule POSTMILL_MARKER, 15.0), anything else scores 0.1 (rule MISSING_DATE).
 */
export function startFakeSpamd(): Promise<FakeScanner> {
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      const request = Buffer.concat(chunks);
      const spam = request.includes('SPAM-MARKER');
      const symbols = request.subarray(0, 8).toString() === 'SYMBOLS ' ? (spam ? 'POSTMILL_MARKER,MISSING_DATE' : 'MISSING_DATE') : '';
      socket.end(`SPAMD/1.1 0 EX_OK\r\nContent-length: ${symbols.length}\r\nSpam: ${spam ? 'True ; 15.0 / 5.0' : 'False ; 0.1 / 5.0'}\r\n\r\n${symbols}`);
    });
  });
  return listen(server);
}

/** A loopback stand-in for clamd's INSTREAM: a stream containing `VIRUS-MARKER` is infected. */
export function startFakeClamd(): Promise<FakeScanner> {
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      const body = Buffer.concat(chunks);
      socket.end(body.includes('VIRUS-MARKER') ? 'stream: Test.Marker FOUND\0' : 'stream: OK\0');
    });
  });
  return listen(server);
}
