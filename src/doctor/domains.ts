import type { Dns } from '../dns/resolver.js';
import { checkRecords, type CheckResult } from '../domains/check.js';
import { domainRecords } from '../domains/records.js';
import { listAllDomains, type Domain, type RecordPurpose } from '../domains/store.js';
import type { Db } from '../store/db.js';
import { checkAlignment } from './alignment.js';
import { failed, passed, type Check } from './check.js';

/** Records without which mail from the domain fails DMARC or loses its bounces; DMARC itself is advice. */
const REQUIRED: RecordPurpose[] = ['dkim', 'bounce', 'spf'];

/** The names of the checks of one sender domain: its records, and their DMARC alignment. */
export const domainCheckNames = (domain: string) => [`domain ${domain}`, `alignment ${domain}`];

/** The DNS records of every sender domain of every project, looked up now, and their DMARC alignment. */
export async function checkDomains(db: Db, dns: Dns, hostname: string): Promise<Check[]> {
  const domains = listAllDomains(db);
  if (domains.length === 0) {
    return [passed('domains', 'no sender domains registered yet (POST /domains registers one and lists its records)')];
  }
  const checks = await Promise.all(
    domains.map(async (d) => {
      const found = await checkRecords(dns, d, hostname);
      return [recordsCheck(d, hostname, found), await checkAlignment(dns, d.domain, found)];
    }),
  );
  return checks.flat();
}

/** Whether the records the domain was handed are published. */
function recordsCheck(d: Domain, hostname: string, found: CheckResult): Check {
  const name = `domain ${d.domain}`;
  const wrong = domainRecords(d, hostname).filter((r) => found[r.purpose].verified !== true);
  const blocking = wrong.filter((r) => REQUIRED.includes(r.purpose));
  const reasons = wrong.map((r) => found[r.purpose].reason).join('; ');
  if (blocking.length === 0)
    return passed(name, wrong.length === 0 ? 'DKIM, bounce MX, SPF and DMARC records are published' : `required records published; ${reasons}`);
  return failed(
    name,
    reasons,
    `Publish ${blocking.map((r) => `${r.type} ${r.name} = ${r.type === 'MX' ? `${r.priority} ` : ''}${r.value.length > 60 ? `${r.value.slice(0, 40)}... (the full value: GET /domains/${d.id}/verify)` : r.value}`).join('; ')}`,
  );
}
