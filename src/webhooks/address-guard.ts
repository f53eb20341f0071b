// Where a webhook may go: globally reachable unicast addresses that are not this machine's own,
// unless the operator allows private ones. Checked on the address a name resolved to, for every
// attempt and every redirect.
//
// The ranges are the IANA special-purpose address registries (IPv4 and IPv6, as of 2025): every entry
// not globally reachable, and whole blocks where the registry marks a few anycast addresses inside
// them reachable (no webhook receiver lives at those). Forms that carry an IPv4 address (mapped,
// NAT64) are judged by that address; deprecated ones that could reach any IPv4 address (IPv4-compatible,
// 6to4) are refused. Outside 2000::/3 no IPv6 address is global unicast.
import { networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

interface Range {
  bytes: Uint8Array;
  prefix: number;
  name: string;
}

const IPV4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, '"this network" (RFC 791)'],
  ['10.0.0.0', 8, 'private use (RFC 1918)'],
  ['100.64.0.0', 10, 'shared address space, carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback (RFC 1122)'],
  ['169.254.0.0', 16, 'link-local, cloud metadata among them (RFC 3927)'],
  ['172.16.0.0', 12, 'private use (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (RFC 6890)'],
  ['192.0.2.0', 24, 'documentation, TEST-NET-1 (RFC 5737)'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast (RFC 7526)'],
  ['192.168.0.0', 16, 'private use (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking (RFC 2544)'],
  ['198.51.100.0', 24, 'documentation, TEST-NET-2 (RFC 5737)'],
  ['203.0.113.0', 24, 'documentation, TEST-NET-3 (RFC 5737)'],
  ['224.0.0.0', 4, 'multicast (RFC 5771)'],
  ['240.0.0.0', 4, 'reserved, limited broadcast among them (RFC 1112, RFC 919)'],
];

const IPV6_RANGES: [string, number, string][] = [
  ['::', 128, 'unspecified (RFC 4291)'],
  ['::1', 128, 'loopback (RFC 4291)'],
  ['::', 96, 'deprecated IPv4-compatible (RFC 4291)'],
  ['64:ff9b:1::', 48, 'local-use IPv4/IPv6 translation (RFC 8215)'],
  ['100::', 64, 'discard-only (RFC 6666)'],
  ['100:0:0:1::', 64, 'dummy prefix (RFC 9780)'],
  ['2001::', 23, 'IETF protocol assignments, Teredo and benchmarking among them (RFC 2928)'],
  ['2001:db8::', 32, 'documentation (RFC 3849)'],
  ['2002::', 16, '6to4, deprecated; its relays reach any IPv4 address (RFC 3056, RFC 7526)'],
  ['3fff::', 20, 'documentation (RFC 9637)'],
  ['5f00::', 16, 'segment routing SIDs (RFC 9602)'],
  ['fc00::', 7, 'unique local, cloud metadata among them (RFC 4193)'],
  ['fe80::', 10, 'link-local (RFC 4291)'],
  ['fec0::', 10, 'deprecated site-local (RFC 3879)'],
  ['ff00::', 8, 'multicast (RFC 4291)'],
];

/** Prefixes whose last 32 bits are an IPv4 address the packet really goes to. */
const CARRIES_IPV4: [string, number, string][] = [
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['64:ff9b::', 96, 'NAT64'],
];

const GLOBAL_UNICAST: Range = { bytes: Uint8Array.of(0x20, ...new Array<number>(15).fill(0)), prefix: 3, name: 'global unicast (2000::/3)' };

function ipv4Bytes(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

/** The 16 bytes of an IPv6 address that isIP accepted (compressed, with a dotted IPv4 tail, with a zone). */
function ipv6Bytes(text: string): Uint8Array {
  let address = text.split('%')[0]!;
  // a dotted IPv4 tail (::ffff:10.0.0.1) is the last two groups
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    address = address.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = address.split('::');
  const first = groups(head);
  const last = groups(tail);
  const all = tail === undefined ? first : [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

function bytesOf(address: string): Uint8Array | null {
  const family = isIP(address.split('%')[0]!);
  return family === 4 ? ipv4Bytes(address) : family === 6 ? ipv6Bytes(address) : null;
}

const ranges = (list: [string, number, string][]): Range[] => list.map(([network, prefix, name]) => ({ bytes: bytesOf(network)!, prefix, name }));
const V4 = ranges(IPV4_RANGES);
const V6 = ranges(IPV6_RANGES);
const CARRIERS = ranges(CARRIES_IPV4);

function inRange(bytes: Uint8Array, range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  const whole = range.prefix >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== range.bytes[i]) return false;
  const bits = range.prefix & 7;
  if (bits === 0) return true;
  const mask = (0xff << (8 - bits)) & 0xff;
  return (bytes[whole]! & mask) === (range.bytes[whole]! & mask);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** This machine's addresses, read now: interfaces come and go (DHCP, containers, VPNs). */
export function hostAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
}

function judged(address: string, bytes: Uint8Array, own: readonly Uint8Array[]): string | null {
  const special = (bytes.length === 4 ? V4 : V6).find((range) => inRange(bytes, range));
  if (special) return `${address} is in a range that is not globally reachable: ${special.name}`;
  if (bytes.length === 16 && !inRange(bytes, GLOBAL_UNICAST)) return `${address} is not a global unicast address (outside 2000::/3)`;
  // a listener on 0.0.0.0 or :: answers on every address of the machine, public ones too
  if (own.some((mine) => sameBytes(mine, bytes))) return `${address} is an address of this machine`;
  return null;
}

/**
 * Null when a webhook may connect to `address`, else why not. `own` is this machine's addresses
 * (read from its interfaces at each check unless given).
 */
export function refusedAddress(address: string, allowPrivate: boolean, own: readonly string[] = allowPrivate ? [] : hostAddresses()): string | null {
  const bytes = bytesOf(address);
  if (!bytes) return `${address} is not an IP address`;
  if (allowPrivate) return null;
  const ownBytes = own.map(bytesOf).filter((b): b is Uint8Array => b !== null);
  const carrier = bytes.length === 16 ? CARRIERS.find((range) => inRange(bytes, range)) : undefined;
  if (carrier) {
    const inner = bytes.subarray(12);
    const why = judged(inner.join('.'), inner, ownBytes);
    return why && `${address} is ${carrier.name} ${inner.join('.')}: ${why}`;
  }
  return judged(address, bytes, ownBytes);
}
