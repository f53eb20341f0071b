import { isIP } from 'node:net';
import type { Dns } from '../dns/resolver.js';
import { failed, passed, reasonOf, type Check } from './check.js';

const NAME = 'reverse-dns';

/** The eight groups of an IPv6 address, each four hex digits (`::` expanded). */
function ipv6Groups(ip: string): string[] {
  const [head = '', tail = null] = ip.includes('::') ? ip.split('::') : [ip, null];
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const zeros = tail === null ? [] : Array<string>(8 - first.length - last.length).fill('0');
  return [...first, ...zeros, ...last].map((group) => group.padStart(4, '0'));
}

/** The PTR name of an address: 4.3.2.1.in-addr.arpa, or the nibbles of an IPv6 address under ip6.arpa. */
export function reverseName(ip: string): string {
  if (isIP(ip) === 4) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  return `${[...ipv6Groups(ip).join('')].reverse().join('.')}.ip6.arpa`;
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Forward-confirmed reverse DNS of `hostname`: its addresses (A, AAAA) must each have a PTR
 * record naming it back. Receivers check this of the address that connects to them.
 */
export async function checkReverseDns(dns: Dns, hostname: string): Promise<Check> {
  const host = bare(hostname);
  let addresses: string[];
  try {
    addresses = [...(await dns.a(host)), ...(await dns.aaaa(host))];
  } catch (err) {
    return failed(NAME, `the lookup of ${host} failed (${reasonOf(err)})`, 'Check dns.servers (or /etc/resolv.conf)');
  }
  if (addresses.length === 0) {
    return failed(
      NAME,
      `${host} (hostname) has no A or AAAA record`,
      `Publish an A record for ${host} with this machine's public address, or set hostname to the name that has one`,
    );
  }
  const wrong: string[] = [];
  for (const ip of addresses) {
    let names: string[];
    try {
      names = ((await dns.resolve(reverseName(ip), 'PTR')) as string[]).map(bare);
    } catch (err) {
      names = [];
      if (!['ENOTFOUND', 'ENODATA'].includes(String((err as NodeJS.ErrnoException).code))) {
        return failed(NAME, `the PTR lookup of ${ip} failed (${reasonOf(err)})`, 'Check dns.servers (or /etc/resolv.conf)');
      }
    }
    if (!names.includes(host)) wrong.push(`${ip} -> ${names.length > 0 ? names.join(', ') : 'no PTR record'}`);
  }
  if (wrong.length > 0) {
    return failed(
      NAME,
      `the reverse DNS of ${host}'s addresses does not name it: ${wrong.join('; ')}`,
      `Ask your hosting provider to set the PTR (reverse DNS) record of ${addresses.join(', ')} to ${host}; mailbox providers refuse or junk mail from addresses without it`,
    );
  }
  return passed(NAME, `${addresses.join(', ')} <-> ${host}`);
}
