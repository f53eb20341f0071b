// What a receiving system would make of an email as sent: its DKIM signatures checked by the
// verifier inbound mail goes through (mailauth), and SpamAssassin's score where spamd is configured.
import type { Core } from '../core.js';
import type { Dns } from '../dns/resolver.js';
import { listProjectKeys } from '../domains/key-store.js';
import { dkimName, dkimValue } from '../domains/records.js';
import { listProjectDomains } from '../domains/store.js';
import { spamReport, type SpamReport } from '../inbound/scanners/spamd.js';

export interface DkimCheck {
  domain: string;
  selector: string | null;
  /** mailauth's result: pass, fail, neutral (present but not verifying), none, temperror, permerror... */
  result: string;
  comment: string | null;
  /**
   * Where the public key came from: `dns`, or `domain records` when DNS had none and the project's
   * own record for the name was used (a domain marked verified in capture mode, not yet published).
   */
  keyFrom: 'dns' | 'domain records';
}

export interface EmailChecks {
  dkim: DkimCheck[];
  /** null without `scanners.spamd`, or when spamd could not say. */
  spam: SpamReport | null;
  spamdConfigured: boolean;
}

const absent = (name: string) => Object.assign(new Error(`no TXT record at ${name}`), { code: 'ENOTFOUND' });

/** The project's own DKIM key records by name, every key of every domain: what it is told to publish. */
function ownKeyRecords(core: Core, projectId: string): Map<string, string> {
  const records = new Map<string, string>();
  const keys = listProjectKeys(core.db, projectId);
  for (const d of listProjectDomains(core.db, projectId)) {
    for (const key of keys.get(d.id) ?? []) records.set(dkimName(key.selector, d.domain).toLowerCase(), dkimValue(key));
  }
  return records;
}

async function checkDkim(core: Core, dns: Dns, projectId: string, raw: Buffer): Promise<DkimCheck[]> {
  const own = ownKeyRecords(core, projectId);
  const fromRecords = new Set<string>();
  const { dkimVerify } = await import('mailauth/lib/dkim/verify.js');
  const { results } = await dkimVerify(raw, {
    async resolver(name: string, rrtype: string) {
      if (rrtype !== 'TXT') throw absent(name);
      const published = await dns.txt(name).catch(() => []);
      if (published.length > 0) return published.map((t) => [t]);
      const record = own.get(name.toLowerCase());
      if (!record) throw absent(name);
      fromRecords.add(name.toLowerCase());
      return [[record]];
    },
  });
  return results
    .filter((r) => r.signingDomain)
    .map((r) => ({
      domain: r.signingDomain,
      selector: r.selector ?? null,
      result: r.status.result,
      comment: r.status.comment ?? null,
      keyFrom: r.selector && fromRecords.has(`${r.selector}._domainkey.${r.signingDomain}`.toLowerCase()) ? 'domain records' : 'dns',
    }));
}

export async function checkAsSent(core: Core, dns: Dns, projectId: string, raw: Buffer): Promise<EmailChecks> {
  const spamd = core.config.scanners.spamd;
  const [dkim, spam] = await Promise.all([checkDkim(core, dns, projectId, raw), spamd ? spamReport(spamd, raw) : Promise.resolve(null)]);
  return { dkim, spam, spamdConfigured: spamd !== null };
}
