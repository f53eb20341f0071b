import { Resolver } from 'node:dns/promises';
import { failed, passed, reasonOf, type Check } from './check.js';

const NAME = 'dns';
/** A resolver answers the root zone's NS from its cache at once; two tries cover a lost packet (about 4 s when nothing answers). */
const TIMEOUT_MS = 1000;
const TRIES = 2;
/** Failures of the transport: no DNS message came back at all. */
const SILENT = new Set(['ETIMEOUT', 'ECONNREFUSED']);

const FIX =
  'Point dns.servers (or /etc/resolv.conf) at a recursive resolver this machine can reach: your provider\'s, or a public one such as 1.1.1.1 or 9.9.9.9. Delivery, domain verification and the other checks need it';

/**
 * Whether the resolvers of dns.servers (or the system's) answer for the Internet: asked for the
 * root zone's name servers, which every recursive resolver knows, they must name some. Every other
 * check that looks something up in DNS means nothing until this one passes.
 */
export async function checkDns(servers: string[]): Promise<Check> {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  if (servers.length > 0) resolver.setServers(servers);
  const asked = resolver.getServers().join(', ') || 'no resolver configured';
  let roots: string[];
  try {
    roots = await resolver.resolveNs('.');
  } catch (err) {
    const reason = reasonOf(err);
    if (SILENT.has(reason)) return failed(NAME, `DNS does not answer: no reply from ${asked} (${reason})`, FIX);
    return failed(NAME, `DNS does not answer for the Internet: ${asked} answered ${reason} when asked for the root zone's name servers, which every resolver knows`, FIX);
  }
  if (roots.length === 0) return failed(NAME, `DNS does not answer for the Internet: ${asked} names no root name servers`, FIX);
  return passed(NAME, `${asked} answers (${roots.length} root name servers)`);
}
