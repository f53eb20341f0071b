import { isIPv6 } from 'node:net';

/** Groups of 16 bits a piece of an IPv6 address spells: an embedded IPv4 address is two. */
const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);

/**
 * The key a client is counted under (connections, failed logins): an IPv4 address as it is, an
 * IPv4-mapped IPv6 address as its IPv4 address, any other IPv6 address as its /64, the smallest
 * network a customer gets and a host can take any address of at will.
 */
export function clientKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const address = ip.toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
