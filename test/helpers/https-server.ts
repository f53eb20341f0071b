import { createServer, type Server } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Pem } from './test-ca.js';

export interface ServedFile {
  status: number;
  body: string;
  contentType?: string;
}

export interface HttpsRequest {
  host: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface TestHttpsServer {
  /** The loopback address it listens on, port 443 (where MTA-STS policies live). */
  address: string;
  /** The certificate shown for `host` (SNI). */
  certificate(host: string, pem: Pem): void;
  /** What a request (any method) of `host` + `path` answers; unset ones answer 404. */
  serve(host: string, path: string, file: ServedFile | null): void;
  /** Every request, in order. */
  requests: HttpsRequest[];
  close(): Promise<void>;
}

/**
 * An HTTPS server on port 443 of a loopback address of its own (127.x.y.z, picked at random so that
 * other test runs do not collide): MTA-STS policies are fetched from https://mta-sts.DOMAIN/ on 443.
 * Needs the right to bind port 443 (root, or net.ipv4.ip_unprivileged_port_start).
 */
export async function startHttpsServer(fallback: Pem): Promise<TestHttpsServer> {
  const contexts = new Map<string, SecureContext>();
  const files = new Map<string, ServedFile>();
  const requests: HttpsRequest[] = [];
  const server: Server = createServer(
    {
      key: fallback.key,
      cert: fallback.cert,
      SNICallback: (name, done) => done(null, contexts.get(name.toLowerCase()) ?? createSecureContext(fallback)),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const host = String(req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
        requests.push({ host, method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        const file = files.get(`${host}${req.url}`);
        if (!file) return void res.writeHead(404).end('not found');
        res.writeHead(file.status, { 'content-type': file.contentType ?? 'text/plain' }).end(file.body);
      });
    },
  );
  for (let attempt = 0; ; attempt++) {
    const address = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
    const bound = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' && attempt < 10 ? resolve(false) : reject(err)));
      server.listen(443, address, () => resolve(true));
    });
    if (!bound) continue;
    return {
      address,
      certificate: (host, pem) => void contexts.set(host.toLowerCase(), createSecureContext(pem)),
      serve(host, path, file) {
        if (file) files.set(`${host.toLowerCase()}${path}`, file);
        else files.delete(`${host.toLowerCase()}${path}`);
      },
      requests,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }
}
