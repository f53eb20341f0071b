import type { Clock } from '../clock.js';
import type { Dns } from '../dns/resolver.js';
import { parseEmailAddress } from '../addresses/email.js';
import { cachingDns } from '../dns/cache.js';
import { FairGate } from '../limits/fair-gate.js';
import { domainFacts } from './domain.js';
import { isDisposableDomain, isForwardingDomain, isFreeMailDomain } from './lists.js';
import { suggestDomain } from './typos.js';

/** DNS answers about a domain are kept this long. */
export const VERIFY_CACHE_MS = 10 * 60_000;
/** A lookup that failed (a timeout, SERVFAIL) is kept this long: asking again at once would only wait again. */
export const VERIFY_FAILURE_MS = 30_000;

/**
 * Verifications asking DNS at once: 16 in the daemon, 4 per project (each asks up to four queries
 * at once, so a project alone keeps the 16 queries in flight it had), the waiting projects served in
 * rotation. A project whose names never answer holds only its own four turns; past 64 waiting
 * verifications of one project (1000 in all), 429.
 */
const verifyTurns = () =>
  new FairGate({
    slots: 16,
    perKey: 4,
    maxWaiting: 1000,
    maxWaitingPerKey: 64,
    refusal: { message: 'Too many verifications of this project are in progress', suggestion: 'Retry shortly, or verify fewer addresses at once' },
  });

export interface Verdict {
  email: string;
  valid: boolean;
  isDisposable: boolean;
  isAlias: boolean;
  isTypo: boolean;
  isPlusAddressed: boolean;
  isPersonalEmail: boolean;
  domainExists: boolean;
  hasWebsite: boolean;
  hasMxRecords: boolean;
  suggestedEmail?: string;
  reasons: string[];
}

export interface Verifier {
  /** The verdict on `email`, asking DNS in one of the project's turns. */
  verify(projectId: string, email: string): Promise<Verdict>;
}

const invalidSyntax = (email: string): Verdict => ({
  email,
  valid: false,
  isDisposable: false,
  isAlias: false,
  isTypo: false,
  isPlusAddressed: false,
  isPersonalEmail: false,
  domainExists: false,
  hasWebsite: false,
  hasMxRecords: false,
  reasons: ['The address is not valid email syntax (local-part@domain)'],
});

/**
 * Address verification over `dns.servers`: one verifier per daemon, whose DNS answers are kept 10
 * minutes per name (failures 30 s) and whose lookups take turns between projects.
 */
export function createVerifier(resolver: Dns, clock: Clock): Verifier {
  const dns = cachingDns(resolver, clock, { keepMs: VERIFY_CACHE_MS, failureMs: VERIFY_FAILURE_MS });
  const turns = verifyTurns();
  const factsOf = async (projectId: string, domain: string) => {
    const release = await turns.acquire(projectId);
    try {
      return await domainFacts(dns, domain);
    } finally {
      release();
    }
  };
  return {
    async verify(projectId, email) {
      const address = parseEmailAddress(email.trim());
      if (!address) return invalidSyntax(email);
      const domain = address.domain.toLowerCase();
      const facts = await factsOf(projectId, domain);
      const reasons: string[] = [];
      const suggested = suggestDomain(domain);
      const plus = address.local.indexOf('+');
      const verdict: Verdict = {
        email,
        valid: false,
        isDisposable: isDisposableDomain(domain),
        isAlias: isForwardingDomain(domain),
        isTypo: suggested !== null,
        isPlusAddressed: plus > 0,
        isPersonalEmail: isFreeMailDomain(domain),
        domainExists: facts.hasNs,
        hasWebsite: facts.hasAddress,
        hasMxRecords: facts.hasMx,
        reasons,
      };
      if (facts.failure) {
        reasons.push(`DNS could not be asked about ${domain} (${facts.failure}): the domain is not verified; try again later`);
      } else {
        if (!facts.hasNs) reasons.push(`${domain} has no NS records: the domain does not exist`);
        if (facts.nullMx) reasons.push(`${domain} publishes a null MX record (RFC 7505): it accepts no mail`);
        else if (!facts.hasMx && facts.hasAddress) reasons.push(`${domain} has no MX records; its A/AAAA records serve as the mail host (implicit MX)`);
        else if (!facts.hasMx) reasons.push(`${domain} has no MX, A or AAAA records: no host accepts mail for it`);
        if (!facts.hasAddress) reasons.push(`${domain} has no A or AAAA records: no website`);
      }
      verdict.valid = !facts.failure && facts.hasNs && !facts.nullMx && (facts.hasMx || facts.hasAddress);
      if (verdict.isDisposable) reasons.push(`${domain} is a disposable-address service`);
      if (verdict.isAlias) reasons.push(`${domain} is an email forwarding (alias) service`);
      if (suggested) {
        verdict.suggestedEmail = `${address.local}@${suggested}`;
        reasons.push(`${domain} looks like a typo of ${suggested}`);
      }
      if (verdict.isPlusAddressed) reasons.push(`Plus-addressed: the mailbox is ${address.local.slice(0, plus)}@${domain}`);
      if (verdict.isPersonalEmail) reasons.push(`${domain} is a free email provider: a personal address`);
      return verdict;
    },
  };
}
