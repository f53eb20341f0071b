import type { Dns } from '../dns/resolver.js';
import type { DomainKey } from './key-store.js';
import { bounceName, dkimName, dmarcName } from './records.js';
import type { Domain, RecordPurpose } from './store.js';

/** One record's outcome: `verified` is null when the lookup itself failed (timeout, SERVFAIL). */
export interface RecordCheck {
  verified: boolean | null;
  reason: string | null;
}

export type CheckResult = Record<RecordPurpose, RecordCheck>;

const ok: RecordCheck = { verified: true, reason: null };
const missing = (reason: string): RecordCheck => ({ verified: false, reason });

/** Tags of a DKIM key record (RFC 6376 3.6.1); whitespace inside values is folding and carries nothing. */
function dkimTags(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags.set(part.slice(0, eq).trim(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}

/** Whether the TXT record(s) at `name` publish `key`, and if not, what is wrong with them. */
export function checkDkimRecord(texts: string[], name: string, key: Pick<DomainKey, 'algorithm' | 'publicKey'>): RecordCheck {
  if (texts.length === 0) return missing(`No TXT record found at ${name}`);
  const published = texts
    .map(dkimTags)
    .filter((t) => t.has('p') && (t.get('v') ?? 'DKIM1') === 'DKIM1' && (t.get('k') ?? 'rsa') === key.algorithm)
    .map((t) => t.get('p')!);
  if (published.length === 0) {
    return missing(`The TXT record at ${name} is not a DKIM ${key.algorithm === 'rsa' ? 'RSA' : 'Ed25519'} key record (v=DKIM1; k=${key.algorithm}; p=...)`);
  }
  if (published.includes(key.publicKey)) return ok;
  const truncated = published.find((p) => p.length > 0 && key.publicKey.startsWith(p));
  if (truncated !== undefined) {
    return missing(
      `The DKIM key at ${name} is truncated (${truncated.length} of ${key.publicKey.length} characters); ` +
        'publish the whole value, split into strings of at most 255 characters if your DNS host asks for that',
    );
  }
  return missing(`The DKIM key at ${name} does not match the key of this domain; publish the value exactly as given`);
}

function checkBounceMx(exchanges: { exchange: string }[], domain: string, host: string): RecordCheck {
  const name = bounceName(domain);
  if (exchanges.length === 0) return missing(`No MX record found at ${name}`);
  const names = exchanges.map((m) => m.exchange.toLowerCase().replace(/\.$/, ''));
  return names.includes(host) ? ok : missing(`The MX record at ${name} points to ${names.join(', ')}, not ${host}`);
}

function checkSpf(texts: string[], domain: string, host: string): RecordCheck {
  const name = bounceName(domain);
  const spf = texts.filter((t) => /^v=spf1(\s|$)/i.test(t));
  if (spf.length === 0) return missing(`No SPF record (v=spf1 ...) found at ${name}`);
  if (spf.length > 1) return missing(`${name} has ${spf.length} SPF records; SPF allows one, merge them`);
  const terms = spf[0]!.toLowerCase().split(/\s+/);
  return terms.includes(`a:${host}`) || terms.includes(`+a:${host}`) ? ok : missing(`The SPF record at ${name} does not name a:${host}`);
}

function checkDmarc(texts: string[], domain: string): RecordCheck {
  const name = dmarcName(domain);
  return texts.some((t) => /^v=DMARC1\s*(;|$)/i.test(t)) ? ok : missing(`No DMARC record found at ${name} (recommended, not required)`);
}

/** Runs a lookup and its judgement; a failed lookup is reported as unknown rather than absent. */
export async function judged<T>(name: string, lookup: Promise<T>, judge: (found: T) => RecordCheck): Promise<RecordCheck> {
  let found: T;
  try {
    found = await lookup;
  } catch (err) {
    const code = (err as { code?: unknown }).code ?? (err as Error).message;
    return { verified: null, reason: `The DNS lookup of ${name} failed (${String(code)}); it is retried at the next check` };
  }
  return judge(found);
}

export interface DomainCheck {
  records: Omit<CheckResult, 'dkim'>;
  /** Every DKIM key's record by selector. */
  keys: Map<string, RecordCheck>;
}

/** Looks up every record the domain should publish, one per DKIM key, and judges each against what we handed out. */
export async function checkRecords(dns: Dns, d: Domain, keys: DomainKey[], hostname: string): Promise<DomainCheck> {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const [bounce, spf, dmarc, ...keyChecks] = await Promise.all([
    judged(bounceName(d.domain), dns.mx(bounceName(d.domain)), (mx) => checkBounceMx(mx, d.domain, host)),
    judged(bounceName(d.domain), dns.txt(bounceName(d.domain)), (texts) => checkSpf(texts, d.domain, host)),
    judged(dmarcName(d.domain), dns.txt(dmarcName(d.domain)), (texts) => checkDmarc(texts, d.domain)),
    ...keys.map((key) => {
      const name = dkimName(key.selector, d.domain);
      return judged(name, dns.txt(name), (texts) => checkDkimRecord(texts, name, key));
    }),
  ]);
  return { records: { bounce: bounce!, spf: spf!, dmarc: dmarc! }, keys: new Map(keys.map((key, i) => [key.selector, keyChecks[i]!])) };
}
