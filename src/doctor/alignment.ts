import type { Dns } from '../dns/resolver.js';
import type { RecordCheck } from '../domains/check.js';
import { bounceName, dmarcName } from '../domains/records.js';
import { failed, passed, reasonOf, warned, type Check } from './check.js';

/** The tags of a DMARC record (RFC 7489 6.3), or null when none of the texts is one. */
export function dmarcTags(texts: string[]): Map<string, string> | null {
  const record = texts.find((t) => /^v=DMARC1\s*(;|$)/i.test(t));
  if (!record) return null;
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim().toLowerCase());
  }
  return tags;
}

/** Where receivers find the domain's DMARC policy: its own record, else its organizational domain's (the last two labels; no public suffix list here). */
async function findDmarc(dns: Dns, domain: string): Promise<{ at: string; tags: Map<string, string> } | null> {
  const labels = domain.split('.');
  const names = [dmarcName(domain), ...(labels.length > 2 ? [dmarcName(labels.slice(-2).join('.'))] : [])];
  for (const name of names) {
    let texts: string[];
    try {
      texts = await dns.txt(name);
    } catch (err) {
      if (['ENOTFOUND', 'ENODATA'].includes(String((err as NodeJS.ErrnoException).code))) continue;
      throw err;
    }
    const tags = dmarcTags(texts);
    if (tags) return { at: name, tags };
  }
  return null;
}

/**
 * Whether mail from the domain passes DMARC, and what the domain's DMARC asks of receivers. Mail
 * goes out with From at the domain, DKIM d= the domain (aligned, strict or relaxed) and the
 * envelope at bounces.<domain>, whose SPF aligns only in relaxed mode (the default; aspf=s breaks
 * it, DKIM then carries DMARC alone). No DMARC record fails (Gmail and Yahoo require one of bulk
 * senders); p=none passes with a warning: it asks nothing of receivers, so spoofed mail goes
 * through as well.
 */
export async function checkAlignment(dns: Dns, domain: string, found: { dkim: RecordCheck; spf: RecordCheck }): Promise<Check> {
  const name = `alignment ${domain}`;
  const notAligned = [
    ...(found.dkim.verified ? [] : [`DKIM does not verify (${found.dkim.reason ?? 'unknown'}), so it cannot align`]),
    ...(found.spf.verified ? [] : [`SPF of the envelope domain ${bounceName(domain)} does not pass (${found.spf.reason ?? 'unknown'})`]),
  ];
  let dmarc: Awaited<ReturnType<typeof findDmarc>>;
  try {
    dmarc = await findDmarc(dns, domain);
  } catch (err) {
    return failed(name, `the DMARC lookup of ${domain} failed (${reasonOf(err)})`, 'Check dns.servers (or /etc/resolv.conf)');
  }
  if (!dmarc) {
    return failed(
      name,
      [`no DMARC record at ${dmarcName(domain)}`, ...notAligned].join('; '),
      `Publish TXT ${dmarcName(domain)} = v=DMARC1; p=none; rua=mailto:dmarc@${domain} (Gmail and Yahoo require a DMARC record of bulk senders), then move to p=quarantine once reports show your mail aligned`,
    );
  }
  if (found.dkim.verified !== true && found.spf.verified !== true) {
    return failed(name, notAligned.join('; '), `Publish the DKIM and SPF records the domain lists (GET /domains/{id}): without either, mail from ${domain} fails DMARC`);
  }
  const policy = dmarc.tags.get('p') ?? 'none';
  const strictSpf = dmarc.tags.get('aspf') === 's';
  const aligned = [found.dkim.verified ? 'DKIM (d=' + domain + ')' : null, found.spf.verified && !strictSpf ? `SPF (${bounceName(domain)}, relaxed)` : null].filter(Boolean).join(' and ');
  const notes = [...notAligned, ...(strictSpf ? [`aspf=s: SPF of ${bounceName(domain)} cannot align, DMARC rests on DKIM alone`] : [])];
  const detail = `${aligned} align with From ${domain}; DMARC at ${dmarc.at}: p=${policy}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`;
  if (policy === 'none') {
    return warned(name, detail, `p=none asks receivers for nothing: once the reports (rua) show your mail aligned, publish p=quarantine, then p=reject, at ${dmarc.at}`);
  }
  if (notes.length > 0) return warned(name, detail, `Fix what is listed so both DKIM and SPF align: ${notes.join('; ')}`);
  return passed(name, detail);
}
