import { request, type ClientRequest } from 'node:http';
import type { TestDaemon } from './daemon.js';

export interface HeldSends {
  /** The statuses of the sends answered so far (the refused ones: a held send is never answered). */
  statuses: number[];
  /** Hangs up every send: each ends when its turn comes, and frees it. */
  release(): void;
}

/**
 * `count` large /v1/send requests of one project (bodies announced over 1 MB and never sent): the
 * first holds the project's turn for large requests, the next wait for it in the waiting room, and
 * the ones past its bound are refused.
 */
export function holdLargeSends(daemon: TestDaemon, secretKey: string, count: number): HeldSends {
  const { hostname, port } = new URL(daemon.url);
  const statuses: number[] = [];
  const held: ClientRequest[] = Array.from({ length: count }, () => {
    const req = request({ host: hostname, port, method: 'POST', path: '/v1/send', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'content-length': 2_000_000 } });
    req.on('response', (res) => {
      statuses.push(res.statusCode ?? 0);
      res.resume();
    });
    req.on('error', () => undefined);
    req.write('{"to":');
    return req;
  });
  return { statuses, release: () => held.forEach((req) => req.destroy()) };
}
