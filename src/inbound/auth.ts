// SPF, DKIM and DMARC of a received message, split by what each costs. DKIM's body hashes grow
// with the message (mailauth canonicalises it line by line: 32 s on the event loop for 38 MB of
// short lines), so a compose thread verifies the signatures (inspect.ts); the lookups wait on name
// servers, so the main thread makes them and no thread waits for DNS: the key records the
// signatures name are looked up before the thread starts and handed to it, SPF runs beside it and
// DMARC after it. Together this is what mailauth's `authenticate` does with ARC and BIMI off.
import { isIP } from 'node:net';
import type { DNSResolver, SPFResult } from 'mailauth';
import type { Dns } from '../dns/resolver.js';
import { MAX_HEADER_BYTES } from './header-section.js';
import { verdictOf, type AuthVerdicts, type Verdict } from './verdicts.js';

/** DNS answers by `<type> <name>`: the records, or the error's code and message (mailauth reads the code). */
export type DnsAnswers = Record<string, { records: string[][] | string[] } | { code: string; message: string }>;

const answerKey = (name: string, rrtype: string) => `${rrtype} ${name}`;

/** The DKIM result of the thread: the verdict, and what DMARC needs of it. */
export interface DkimOutcome {
  verdict: Verdict;
  headerFrom: string[];
  passing: { id?: string; domain: string; aligned?: boolean; underSized?: boolean }[];
}

/** The header section of `raw` (at most MAX_HEADER_BYTES, the bound DATA enforces), folded fields joined as mailauth joins them. */
function headerFields(raw: Buffer): { key: string; line: string }[] {
  const head = raw.subarray(0, MAX_HEADER_BYTES + 2).toString('latin1');
  const end = /\r?\n\r?\n/.exec(head);
  const fields: { key: string; line: string }[] = [];
  for (const row of (end ? head.slice(0, end.index) : head).split(/\r?\n/)) {
    const last = fields[fields.length - 1];
    if (last && /^\s/.test(row)) last.line += `\r\n${row}`;
    else fields.push({ key: (/^[^:]+/.exec(row)?.[0] ?? '').trim().toLowerCase(), line: row });
  }
  return fields;
}

/** The key records the DKIM-Signature fields of `raw` name (`<s>._domainkey.<d>`, read with mailauth's own tag parser), and how many fields there are. */
async function dkimKeyNames(raw: Buffer): Promise<{ names: string[]; signatures: number }> {
  const fields = headerFields(raw).filter((f) => f.key === 'dkim-signature');
  if (fields.length === 0) return { names: [], signatures: 0 };
  const { default: parseDkimHeaders } = await import('mailauth/lib/parse-dkim-headers.js');
  const names = fields.map((f) => {
    const tags = parseDkimHeaders(f.line).parsed;
    return `${tags?.s?.value ?? ''}._domainkey.${tags?.d?.value ?? ''}`;
  });
  return { names: [...new Set(names)], signatures: fields.length };
}

/**
 * The key records the message's signatures name, looked up on this thread (DATA bounds their
 * number: see header-section.ts), and how many signatures there are: each may cost a hash of the
 * whole body.
 */
export async function dkimKeys(dns: Dns, raw: Buffer): Promise<{ answers: DnsAnswers; signatures: number }> {
  const answers: DnsAnswers = {};
  const { names, signatures } = await dkimKeyNames(raw);
  await Promise.all(
    names.map(async (name) => {
      answers[answerKey(name, 'TXT')] = await dns.resolve(name, 'TXT').then(
        (records) => ({ records }),
        (err: NodeJS.ErrnoException) => ({ code: String(err.code ?? 'ESERVFAIL'), message: err.message }),
      );
    }),
  );
  return { answers, signatures };
}

/** A resolver that answers from `answers`; a name looked up only now fails as a DNS failure would (mailauth's temperror). */
function answering(answers: DnsAnswers): DNSResolver {
  return async (name, rrtype) => {
    const answer = answers[answerKey(name, rrtype)] ?? { code: 'ESERVFAIL', message: `${rrtype} ${name} was not looked up in advance` };
    if ('records' in answer) return answer.records;
    throw Object.assign(new Error(answer.message), { code: answer.code });
  };
}

/** The message's DKIM signatures verified against the key records looked up for it (a compose thread's work: it reads the whole body). */
export async function verifyDkim(raw: Buffer, answers: DnsAnswers, sender: string): Promise<DkimOutcome> {
  try {
    const { dkimVerify } = await import('mailauth/lib/dkim/verify.js');
    const result = await dkimVerify(raw, { resolver: answering(answers), sender });
    // mailauth calls a signature that is present but does not verify (body hash mismatch) "neutral": that is a failure.
    const verdicts = result.results.map((r) => (r.status.result === 'neutral' ? 'FAIL' : verdictOf(r.status.result)));
    return {
      verdict: verdicts.includes('PASS') ? 'PASS' : (verdicts[0] ?? 'GRAY'),
      headerFrom: result.headerFrom,
      passing: result.results
        .filter((r) => r.status.result === 'pass')
        .map((r) => ({ id: r.id, domain: r.signingDomain, aligned: r.status.aligned, underSized: r.status.underSized })),
    };
  } catch {
    // mailauth gave up on the message (beyond what its parser takes): the verdict says the check itself failed
    return { verdict: 'PROCESSING_FAILED', headerFrom: [], passing: [] };
  }
}

/** The SMTP session a message came in. */
export interface Session {
  ip: string;
  helo: string;
  sender: string;
  /** This server's name. */
  mta: string;
}

/** SPF of the session (no part of the message is read), as mailauth's `authenticate` asks it; null when the check failed. */
export async function checkSpf(dns: Dns, session: Session): Promise<SPFResult | null> {
  const helo = session.helo || session.ip;
  try {
    const { spf } = await import('mailauth/lib/spf/index.js');
    return await spf({ ...session, helo: helo && isIP(helo) ? `[${helo}]` : helo, resolver: dns.resolve });
  } catch {
    // mailauth gave up on SPF (a sender or HELO it cannot read): null is the verdict PROCESSING_FAILED (authVerdicts)
    return null;
  }
}

const FAILED: AuthVerdicts = { spfVerdict: 'PROCESSING_FAILED', dkimVerdict: 'PROCESSING_FAILED', dmarcVerdict: 'PROCESSING_FAILED' };

/** The three verdicts: SPF's, DKIM's (null: the message was not read) and DMARC's over both. */
export async function authVerdicts(dns: Dns, spf: SPFResult | null, dkim: DkimOutcome | null): Promise<AuthVerdicts> {
  const spfVerdict = spf ? verdictOf(spf.status.result) : 'PROCESSING_FAILED';
  if (!dkim) return { ...FAILED, spfVerdict };
  try {
    const { dmarc } = await import('mailauth/lib/dmarc/index.js');
    const result = await dmarc({
      headerFrom: dkim.headerFrom,
      spfDomains: spf?.status.result === 'pass' && spf.domain ? [spf.domain] : [],
      dkimDomains: dkim.passing,
      resolver: dns.resolve,
    });
    return { spfVerdict, dkimVerdict: dkim.verdict, dmarcVerdict: result ? verdictOf(result.status.result) : 'GRAY' };
  } catch {
    // mailauth gave up on DMARC (a From: it cannot read, say): the verdict says the check itself failed
    return { spfVerdict, dkimVerdict: dkim.verdict, dmarcVerdict: 'PROCESSING_FAILED' };
  }
}
