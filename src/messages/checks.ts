// What a receiving system would make of an email as sent: its DKIM signatures checked by the
// verifier inbound mail goes through (mailauth), and SpamAssassin's score where spamd is configured.
// A received email is checked as it came in, with the verdicts it was given on receipt.
import type { Core } from '../core.js';
import { EMAIL_EVENTS } from '../bus/catalogue.js';
import type { Email } from '../emails/store.js';
import { eventsOfEmail } from '../events/store.js';
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

/** SPF, DKIM and DMARC as evaluated when a message came in (the verdicts of its email.received). */
export interface ReceivedVerdicts {
  spf: string;
  dkim: string;
  dmarc: string;
}

export interface EmailChecks {
  dkim: DkimCheck[];
  /** null without `scanners.spamd`, or when spamd could not say. */
  spam: SpamReport | null;
  spamdConfigured: boolean;
  /** A received email's verdicts on receipt; null for outbound mail, or when its email.received is gone. */
  received: ReceivedVerdicts | null;
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

async function checkDkim(dns: Dns, own: Map<string, string>, raw: Buffer): Promise<DkimCheck[]> {
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

/** The verdicts email.received recorded, the first event of a received email. */
function receivedVerdicts(core: Core, email: Email): ReceivedVerdicts | null {
  const [first] = eventsOfEmail(core.db, email.projectId, email.id, 1);
  if (first?.name !== EMAIL_EVENTS.received) return null;
  const { spfVerdict, dkimVerdict, dmarcVerdict } = first.data;
  return { spf: String(spfVerdict), dkim: String(dkimVerdict), dmarc: String(dmarcVerdict) };
}

export async function checkAsSent(core: Core, dns: Dns, email: Email, raw: Buffer): Promise<EmailChecks> {
  const inbound = email.sourceType === 'INBOUND';
  // the project's own records stand in for DNS only for what it sends: a received message is judged on DNS, as on receipt
  const own = inbound ? new Map<string, string>() : ownKeyRecords(core, email.projectId);
  const spamd = core.config.scanners.spamd;
  const [dkim, spam] = await Promise.all([checkDkim(dns, own, raw), spamd ? spamReport(spamd, raw) : Promise.resolve(null)]);
  return { dkim, spam, spamdConfigured: spamd !== null, received: inbound ? receivedVerdicts(core, email) : null };
}
