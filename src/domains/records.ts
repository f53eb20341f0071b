import { isoOrNull } from '../clock.js';
import { byRelevance, keyState, safeToRemoveAt, type KeyState } from './key-states.js';
import type { DomainKey } from './key-store.js';
import type { DkimAlgorithm } from './keys.js';
import type { Domain, RecordPurpose } from './store.js';

/** A DNS record the owner of a domain publishes, with what the last check found. */
export interface DnsRecord {
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  /** MX only. */
  priority?: number;
  purpose: RecordPurpose;
  verified: boolean;
  /** DKIM only: the key's selector, algorithm and state, and when a retiring key's record may leave DNS. */
  selector?: string;
  algorithm?: DkimAlgorithm;
  state?: KeyState;
  safeToRemoveAt?: string | null;
}

export const BOUNCE_MX_PRIORITY = 10;

export const dkimName = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;
/** The VERP envelope domain: asynchronous bounces come back through its MX, SPF is checked on it. */
export const bounceName = (domain: string) => `bounces.${domain}`;
export const dmarcName = (domain: string) => `_dmarc.${domain}`;

/** The DKIM key record (RFC 6376 3.6.1; RFC 8463 4 for Ed25519). */
export const dkimValue = (key: Pick<DomainKey, 'algorithm' | 'publicKey'>) => `v=DKIM1; k=${key.algorithm}; p=${key.publicKey}`;

/** When keys are shown: their state depends on the overlap and the time. */
export interface KeyView {
  overlapDays: number;
  now: number;
}

/** One DKIM record per key (signing RSA key first), then bounce MX, SPF and the recommended DMARC record. */
export function domainRecords(d: Domain, keys: DomainKey[], hostname: string, view: KeyView): DnsRecord[] {
  const verified = (purpose: RecordPurpose) => d.checks[purpose] === true;
  const shown = byRelevance(keys.map((key) => ({ key, algorithm: key.algorithm, state: keyState(key, view.overlapDays, view.now) })));
  return [
    ...shown.map(({ key, state }): DnsRecord => ({
      type: 'TXT',
      name: dkimName(key.selector, d.domain),
      value: dkimValue(key),
      purpose: 'dkim',
      verified: key.published === true,
      selector: key.selector,
      algorithm: key.algorithm,
      state,
      safeToRemoveAt: isoOrNull(safeToRemoveAt(key, view.overlapDays)),
    })),
    { type: 'MX', name: bounceName(d.domain), value: hostname, priority: BOUNCE_MX_PRIORITY, purpose: 'bounce', verified: verified('bounce') },
    { type: 'TXT', name: bounceName(d.domain), value: `v=spf1 a:${hostname} ~all`, purpose: 'spf', verified: verified('spf') },
    { type: 'TXT', name: dmarcName(d.domain), value: `v=DMARC1; p=none; rua=mailto:dmarc@${d.domain}`, purpose: 'dmarc', verified: verified('dmarc') },
  ];
}
