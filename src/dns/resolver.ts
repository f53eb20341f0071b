import { Resolver } from 'node:dns/promises';

/** The one DNS resolver of the daemon: `dns.servers` of the config, or the system's resolvers. */
export interface Dns {
  mx(domain: string): Promise<{ exchange: string; priority: number }[]>;
  a(domain: string): Promise<string[]>;
  aaaa(domain: string): Promise<string[]>;
  /** TXT records, each with its character-strings joined (a 2048-bit DKIM key spans several). */
  txt(domain: string): Promise<string[]>;
  ns(domain: string): Promise<string[]>;
  /** Any record type with node:dns semantics (absence throws ENOTFOUND/ENODATA), for mailauth's checks. */
  resolve(domain: string, rrtype: string): Promise<string[][] | string[]>;
}

/** Codes that mean "this name or type does not exist" rather than "the lookup failed". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN', 'ENOTIMP']);

export function isAbsent(err: unknown): boolean {
  return typeof err === 'object' && err !== null && ABSENT.has(String((err as { code?: unknown }).code));
}

/** Answers an empty list for a missing name or record type; other failures (timeouts, SERVFAIL) throw. */
async function orEmpty<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (err) {
    if (isAbsent(err)) return [];
    throw err;
  }
}

export function createDns(servers: string[], timeoutMs = 5000): Dns {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return {
    mx: (d) => orEmpty(resolver.resolveMx(d)),
    a: (d) => orEmpty(resolver.resolve4(d)),
    aaaa: (d) => orEmpty(resolver.resolve6(d)),
    txt: async (d) => (await orEmpty(resolver.resolveTxt(d))).map((parts) => parts.join('')),
    ns: (d) => orEmpty(resolver.resolveNs(d)),
    resolve: (d, rrtype) => resolver.resolve(d, rrtype) as Promise<string[][] | string[]>,
  };
}
