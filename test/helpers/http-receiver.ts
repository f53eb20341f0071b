import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Decides the answer to each request (status, headers); later calls replace the decider. */
  answer(decide: (req: ReceivedRequest, count: number) => { status: number; headers?: Record<string, string> }): void;
  close(): Promise<void>;
}

/** An HTTP server on loopback that records every request: the far end of WEBHOOK steps. */
export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  let decide: (req: ReceivedRequest, count: number) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(received);
      const { status, headers } = decide(received, requests.length);
      res.writeHead(status, headers).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    answer: (fn) => void (decide = fn),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * What a receiver of a signed request does: recomputes the HMAC-SHA256 of "t.body" with the
 * project's signing secret and compares it in constant time. Answers `t` (unix seconds, of the
 * daemon's clock, for the receiver's freshness check) when the signature is valid, else null.
 */
export function signedAt(secret: string, req: ReceivedRequest): number | null {
  const { t, v1 } = Object.fromEntries(String(req.headers['x-postmill-signature'] ?? '').split(',').map((part) => part.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${t}.${req.body}`).digest('hex');
  const given = Buffer.from(v1 ?? '');
  return t && given.length === expected.length && timingSafeEqual(Buffer.from(expected), given) ? Number(t) : null;
}
