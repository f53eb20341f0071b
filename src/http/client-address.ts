// The address of the client a request comes from: the socket's peer, or, when that peer is one of
// the operator's reverse proxies (config http.trustProxy), the address those proxies name.
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

export type ClientAddressOf = (req: IncomingMessage) => string;

/**
 * Without proxies the client is the socket's peer. With them, X-Forwarded-For is read from the right
 * (the hop our proxy added last) past every trusted proxy (proxy-addr); a peer that is not a trusted
 * proxy cannot name anyone. IPv4 on a dual-stack socket (`::ffff:a.b.c.d`) reads as `a.b.c.d`.
 */
export function clientAddressOf(trustProxy: string[]): ClientAddressOf {
  const trusted = proxyAddr.compile(trustProxy);
  // a socket already closed has no peer address left
  return (req) => (proxyAddr(req, trusted) ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}
