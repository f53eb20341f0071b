import type { Dns } from '../../dns/resolver.js';

/** One mail exchanger of a domain, with its addresses in the order to try them. */
export interface RouteHost {
  name: string;
  addresses: string[];
}

/** Where mail for a domain goes: hosts in preference order, or why it cannot go anywhere. */
export type Route =
  | { ok: true; hosts: RouteHost[] }
  | { ok: false; permanent: boolean; reason: string; enhancedCode: string };

interface Lookup {
  host: RouteHost;
  /** A lookup failed (timeout, SERVFAIL) rather than answering that there is nothing. */
  failed: boolean;
}

/** RFC 7505: a single MX with the root as exchange says the domain takes no mail. */
function isNullExchange(exchange: string): boolean {
  return exchange === '' || exchange === '.';
}

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** Lowest preference first; equal preferences in random order (RFC 5321 5.1) to spread load. */
function byPreference<T extends { priority: number }>(records: T[]): T[] {
  return shuffle(records).sort((a, b) => a.priority - b.priority);
}

/** IPv4 before IPv6: a self-hosted daemon has IPv4 reachability far more often than IPv6. */
async function lookupHost(dns: Dns, name: string): Promise<Lookup> {
  const [v4, v6] = await Promise.allSettled([dns.a(name), dns.aaaa(name)]);
  const addresses = [v4, v6].flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
  const failed = v4.status === 'rejected' || v6.status === 'rejected';
  return { host: { name, addresses }, failed };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Hosts that have addresses, each address listed once (two MX names may share one). */
function routeFrom(lookups: Lookup[], domain: string, absentReason: string, absentCode: string): Route {
  const seen = new Set<string>();
  const hosts: RouteHost[] = [];
  for (const { host } of lookups) {
    const addresses = host.addresses.filter((address) => !seen.has(address));
    addresses.forEach((address) => seen.add(address));
    if (addresses.length > 0) hosts.push({ name: host.name, addresses });
  }
  if (hosts.length > 0) return { ok: true, hosts };
  if (lookups.some((lookup) => lookup.failed)) {
    return { ok: false, permanent: false, reason: `DNS lookups for the mail hosts of ${domain} failed`, enhancedCode: '4.4.3' };
  }
  return { ok: false, permanent: true, reason: absentReason, enhancedCode: absentCode };
}

/**
 * Resolves where mail for `domain` goes (RFC 5321 5.1): its MX hosts by preference, or the
 * domain itself when it has no MX (implicit MX). Null MX and a domain without MX, A or AAAA
 * records are permanent failures; DNS failures are temporary.
 */
export async function resolveRoute(dns: Dns, domain: string): Promise<Route> {
  let records: { exchange: string; priority: number }[];
  try {
    records = await dns.mx(domain);
  } catch (err) {
    return { ok: false, permanent: false, reason: `MX lookup for ${domain} failed: ${describe(err)}`, enhancedCode: '4.4.3' };
  }
  if (records.length === 0) {
    return routeFrom([await lookupHost(dns, domain)], domain, `${domain} has no MX or A records`, '5.1.2');
  }
  if (records.length === 1 && isNullExchange(records[0].exchange)) {
    return { ok: false, permanent: true, reason: `${domain} accepts no mail (null MX)`, enhancedCode: '5.1.10' };
  }
  const exchanges = byPreference(records.filter((record) => !isNullExchange(record.exchange)));
  const lookups = await Promise.all(exchanges.map((record) => lookupHost(dns, record.exchange)));
  return routeFrom(lookups, domain, `no MX host of ${domain} has an address`, '5.4.4');
}
