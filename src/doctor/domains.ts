import type { Dns } from '../dns/resolver.js';
import { checkRecords, type DomainCheck, type RecordCheck } from '../domains/check.js';
import { listDomainKeys, type DomainKey } from '../domains/key-store.js';
import { domainRecords, type DnsRecord, type KeyView } from '../domains/records.js';
import { listAllDomains, type Domain, type RecordPurpose } from '../domains/store.js';
import type { Db } from '../store/db.js';
import { checkAlignment } from './alignment.js';
import { failed, passed, type Check } from './check.js';

/**
 * Records without which mail from the domain fails DMARC or loses its bounces; DMARC itself is
 * advice, and so is a new DKIM key still pending (the current one signs until it is published).
 */
const REQUIRED: RecordPurpose[] = ['dkim', 'bounce', 'spf'];
const required = (r: DnsRecord) => REQUIRED.includes(r.purpose) && r.state !== 'pending';

const unknown: RecordCheck = { verified: null, reason: null };

/** What the check found of one record: a DKIM record by its key's selector, the others by purpose. */
const foundOf = (found: DomainCheck, r: DnsRecord): RecordCheck =>
  r.purpose === 'dkim' ? (found.keys.get(r.selector ?? '') ?? unknown) : found.records[r.purpose];

/** DKIM as alignment sees it: a key that signs now and is published (any one will do). */
const signingDkim = (found: DomainCheck, keys: DomainKey[]): RecordCheck => {
  const signing = keys.filter((k) => k.state === 'active').map((k) => found.keys.get(k.selector) ?? unknown);
  return signing.find((c) => c.verified === true) ?? signing[0] ?? unknown;
};

/** The names of the checks of one sender domain: its records, and their DMARC alignment. */
export const domainCheckNames = (domain: string) => [`domain ${domain}`, `alignment ${domain}`];

/**
 * The DNS records of every sender domain of every project, looked up now (a DKIM key past its
 * overlap is no longer needed), and their DMARC alignment.
 */
export async function checkDomains(db: Db, dns: Dns, hostname: string, view: KeyView): Promise<Check[]> {
  const domains = listAllDomains(db);
  if (domains.length === 0) {
    return [passed('domains', 'no sender domains registered yet (POST /domains registers one and lists its records)')];
  }
  const checks = await Promise.all(
    domains.map(async (d) => {
      const keys = listDomainKeys(db, d.projectId, d.id);
      const found = await checkRecords(dns, d, keys, hostname);
      return [recordsCheck(d, keys, hostname, view, found), await checkAlignment(dns, d.domain, { dkim: signingDkim(found, keys), spf: found.records.spf })];
    }),
  );
  return checks.flat();
}

/** Whether the records the domain was handed are published. */
function recordsCheck(d: Domain, keys: DomainKey[], hostname: string, view: KeyView, found: DomainCheck): Check {
  const name = `domain ${d.domain}`;
  const needed = domainRecords(d, keys, hostname, view).filter((r) => r.state !== 'safe_to_remove');
  const wrong = needed.filter((r) => foundOf(found, r).verified !== true);
  const blocking = wrong.filter(required);
  const reasons = wrong.map((r) => foundOf(found, r).reason).join('; ');
  if (blocking.length === 0)
    return passed(name, wrong.length === 0 ? 'DKIM, bounce MX, SPF and DMARC records are published' : `required records published; ${reasons}`);
  return failed(
    name,
    reasons,
    `Publish ${blocking.map((r) => `${r.type} ${r.name} = ${r.type === 'MX' ? `${r.priority} ` : ''}${r.value.length > 60 ? `${r.value.slice(0, 40)}... (the full value: GET /domains/${d.id}/verify)` : r.value}`).join('; ')}`,
  );
}
