// The address of the client a request comes from: the socket's peer, or, when that peer is one of
// the operator's reverse proxies (config http.trustProxy), the address those proxies name.
import { BlockList, isIP } from 'node:net';

/** `a.b.c.d`, an IPv6 address, or either with a `/prefix`: what http.trustProxy lists. */
export function isProxyEntry(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** `::ffff:a.b.c.d` (IPv4 on a dual-stack socket) as `a.b.c.d`; `[v6]:port` and `v4:port` without the port. */
function bareAddress(raw: string): string | null {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped) text = mapped[1]!;
  return isIP(text) === 0 ? null : text.toLowerCase();
}

export type ClientAddressOf = (socketAddress: string | undefined, forwardedFor: string | undefined) => string;

/**
 * Without proxies the client is the socket's peer. With them, X-Forwarded-For is read from the
 * right (the hop our proxy added last) past every trusted proxy; the first address that is not one
 * is the client. A peer that is not a trusted proxy cannot name anyone: its header is ignored.
 */
export function clientAddressOf(trustProxy: string[]): ClientAddressOf {
  const proxies = new BlockList();
  for (const entry of trustProxy) {
    const [written, prefix] = entry.split('/') as [string, string | undefined];
    const address = bareAddress(written) ?? written;
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) proxies.addAddress(address, type);
    else proxies.addSubnet(address, Number(prefix), type);
  }
  const trusted = (address: string) => proxies.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  return (socketAddress, forwardedFor) => {
    const peer = bareAddress(socketAddress ?? '') ?? 'unknown';
    if (trustProxy.length === 0 || !trusted(peer)) return peer;
    let client = peer;
    const hops = (forwardedFor ?? '').split(',').reverse();
    for (const hop of hops) {
      const address = bareAddress(hop);
      if (address === null) break; // a trusted proxy passed on something that is not an address: it is the last we know
      client = address;
      if (!trusted(address)) break;
    }
    return client;
  };
}
