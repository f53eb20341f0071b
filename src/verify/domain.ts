// What DNS says about a mail domain: does it exist (NS), where does its mail go (MX, or A/AAAA as the
// implicit MX of RFC 5321), does it refuse all mail (null MX, RFC 7505), has it a website.
import type { Dns } from '../dns/resolver.js';

export interface DomainFacts {
  /** NS records at the name, or at the zone above a name that has records of its own (`mail.example.com`). */
  hasNs: boolean;
  /** MX records other than a null MX. */
  hasMx: boolean;
  nullMx: boolean;
  /** A or AAAA records. */
  hasAddress: boolean;
  /** Why DNS could not answer (a timeout, a refused query); the other facts are then unknown. */
  failure: string | null;
}

/** Parent zones looked at for NS records, at most: `a.b.example.co.uk` and up. */
const MAX_PARENT_STEPS = 4;

async function zoneAboveHasNs(dns: Dns, domain: string): Promise<boolean> {
  let name = domain;
  for (let step = 0; step < MAX_PARENT_STEPS; step++) {
    name = name.slice(name.indexOf('.') + 1);
    if (!name.includes('.')) return false; // a top-level domain proves nothing
    if ((await dns.ns(name)).length > 0) return true;
  }
  return false;
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
}

export async function domainFacts(dns: Dns, domain: string): Promise<DomainFacts> {
  try {
    const [ns, mx, a, aaaa] = await Promise.all([dns.ns(domain), dns.mx(domain), dns.a(domain), dns.aaaa(domain)]);
    const nullMx = mx.length === 1 && (mx[0]!.exchange === '' || mx[0]!.exchange === '.');
    const hasAddress = a.length + aaaa.length > 0;
    const hasNs = ns.length > 0 || ((mx.length > 0 || hasAddress) && (await zoneAboveHasNs(dns, domain)));
    return { hasNs, hasMx: mx.length > 0 && !nullMx, nullMx, hasAddress, failure: null };
  } catch (err) {
    return { hasNs: false, hasMx: false, nullMx: false, hasAddress: false, failure: describe(err) };
  }
}
