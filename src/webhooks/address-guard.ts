// Where a webhook may go: public unicast addresses only, unless the operator allows private ones.
// Checked on the address a name resolved to, for every attempt and every redirect.
import { BlockList, isIP } from 'node:net';

const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // this network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (fd00:ec2::254 is a cloud metadata address)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of any IPv4 address, private ones included
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

/** IPv4 written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it is. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Null when a webhook may connect to `address`, else why not. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const ip = unmapped(address);
  const family = isIP(ip);
  if (family === 0) return `${address} is not an IP address`;
  if (allowPrivate) return null;
  return forbidden.check(ip, family === 4 ? 'ipv4' : 'ipv6') ? `${address} is a private, loopback, link-local or reserved address` : null;
}
