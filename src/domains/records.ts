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
}

export const BOUNCE_MX_PRIORITY = 10;

export const dkimName = (d: Pick<Domain, 'selector' | 'domain'>) => `${d.selector}._domainkey.${d.domain}`;
/** The VERP envelope domain: asynchronous bounces come back through its MX, SPF is checked on it. */
export const bounceName = (domain: string) => `bounces.${domain}`;
export const dmarcName = (domain: string) => `_dmarc.${domain}`;

/** DKIM, bounce MX, SPF and the recommended DMARC record, in the order they matter. */
export function domainRecords(d: Domain, hostname: string): DnsRecord[] {
  const verified = (purpose: RecordPurpose) => d.checks[purpose] === true;
  return [
    { type: 'TXT', name: dkimName(d), value: `v=DKIM1; k=rsa; p=${d.publicKey}`, purpose: 'dkim', verified: verified('dkim') },
    { type: 'MX', name: bounceName(d.domain), value: hostname, priority: BOUNCE_MX_PRIORITY, purpose: 'bounce', verified: verified('bounce') },
    { type: 'TXT', name: bounceName(d.domain), value: `v=spf1 a:${hostname} ~all`, purpose: 'spf', verified: verified('spf') },
    { type: 'TXT', name: dmarcName(d.domain), value: `v=DMARC1; p=none; rua=mailto:dmarc@${d.domain}`, purpose: 'dmarc', verified: verified('dmarc') },
  ];
}
