// The daemon's `hostname` is what every domain's records point at (the bounce MX, the SPF `a:`), the
// name it greets with (EHLO) and signs Message-IDs with. A name that is not fully qualified (a
// newcomer's `vm`) or does not resolve to this machine makes those records point nowhere, or at
// another machine: the bounces and the SPF pass they exist for never come. Said where the records are
// shown (the console's Domains page, through GET /domains) and by `postmill doctor`.
import type { Dns } from '../dns/resolver.js';
import { hostAddresses } from '../webhooks/address-guard.js';

export type HostnameVerdict = 'ok' | 'not-qualified' | 'unresolved' | 'elsewhere';

export interface HostnameFinding {
  name: string;
  verdict: HostnameVerdict;
  /** What is wrong, null when nothing is. */
  problem: string | null;
  /** What to do about it, null when nothing is wrong. */
  fix: string | null;
  /** The addresses the name resolves to. */
  addresses: string[];
}

const SET_IT = 'Set hostname (POSTMILL_HOSTNAME) to the fully qualified name of this machine, such as mail.example.com, with an A (or AAAA) record of its public address';

/** Checks `hostname` with the daemon's resolver against this machine's addresses (`own`, read from its interfaces unless given). */
export async function checkHostname(dns: Dns, hostname: string, own: readonly string[] = hostAddresses()): Promise<HostnameFinding> {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const wrong = (verdict: HostnameVerdict, problem: string, fix = SET_IT, addresses: string[] = []): HostnameFinding => ({ name, verdict, problem, fix, addresses });
  if (!name.includes('.')) return wrong('not-qualified', `${name} (hostname) is not a fully qualified name (it has no dot): receivers cannot look it up`);
  let addresses: string[];
  try {
    addresses = [...(await dns.a(name)), ...(await dns.aaaa(name))];
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    return wrong('unresolved', `${name} (hostname) could not be looked up (${reason})`, `Check dns.servers (or /etc/resolv.conf). ${SET_IT}`);
  }
  if (addresses.length === 0) return wrong('unresolved', `${name} (hostname) does not resolve: it has no A or AAAA record`);
  if (!addresses.some((address) => own.includes(address))) {
    return wrong(
      'elsewhere',
      `${name} (hostname) resolves to ${addresses.join(', ')}, not an address of this machine (${own.join(', ')}): unless this machine is reached at that address through NAT, bounces and SPF checks go to another machine`,
      SET_IT,
      addresses,
    );
  }
  return { name, verdict: 'ok', problem: null, fix: null, addresses };
}
