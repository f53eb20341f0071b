// MTA-STS discovery and cache (RFC 8461 3 and 5): the `_mta-sts` TXT id, the policy fetched over
// HTTPS through the webhooks' guarded client, kept in the store for its max_age. A policy that cannot
// be fetched again (or whose TXT record went missing) still applies while cached: a restart or an
// attacker blocking the fetch does not downgrade delivery. Asked once per domain per RECHECK_MS.
import type { Clock } from '../../clock.js';
import type { Dns } from '../../dns/resolver.js';
import { keptFor } from '../../memo.js';
import type { Db } from '../../store/db.js';
import { sendWebhook, type WebhookOptions } from '../../webhooks/request.js';
import { parseStsPolicy, stsRecordId, type StsPolicy } from './mta-sts-policy.js';
import { readStsPolicy, saveStsPolicy } from './store.js';

/** A domain's policy in force, with its lines as TLS-RPT reports quote them. */
export interface ActiveSts {
  policy: StsPolicy;
  lines: string[];
}

/** Why a policy could not be had, in RFC 8460's words. */
export type StsFetchFailure = { resultType: 'sts-policy-fetch-error' | 'sts-policy-invalid' | 'sts-webpki-invalid'; detail: string };

export interface MtaSts {
  /** The policy in force for `domain`, null when it has none (or mode none is all it has). */
  policyOf(domain: string): Promise<ActiveSts | null>;
}

export interface MtaStsDeps {
  db: Db;
  clock: Clock;
  dns: Dns;
  /** How the policy is fetched: the guarded client's options (private addresses, CA roots). */
  fetch: Pick<WebhookOptions, 'allowPrivate' | 'ca'>;
  /** A fetch that failed, for TLS-RPT. */
  onFetchFailure(domain: string, failure: StsFetchFailure): void;
}

/** A domain's TXT record (and the store) is read again after this long; in between, lookups cost nothing. */
export const RECHECK_MS = 5 * 60_000;
/** RFC 8461 3.3 asks for a bound; 64 KB is what the RFC's examples and common senders use. */
const MAX_POLICY_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 30_000;
const MAX_DOMAINS = 10_000;

const linesOf = (text: string) => text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);

function failureOf(err: unknown): StsFetchFailure {
  const detail = err instanceof Error ? err.message : String(err);
  const webpki = /certificate|Hostname\/IP|self.signed|issuer/i.test(detail);
  return { resultType: webpki ? 'sts-webpki-invalid' : 'sts-policy-fetch-error', detail };
}

export function createMtaSts(deps: MtaStsDeps): MtaSts {
  const { db, clock, dns } = deps;

  async function fetchPolicy(domain: string): Promise<string> {
    const url = `https://mta-sts.${domain}/.well-known/mta-sts.txt`;
    const response = await sendWebhook(
      { url, method: 'GET', headers: { accept: 'text/plain' }, originHeaders: {}, body: null },
      { dns, ...deps.fetch, timeoutMs: FETCH_TIMEOUT_MS, maxRedirects: 0, maxBodyBytes: MAX_POLICY_BYTES },
    );
    if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}`);
    if (!/^text\/plain\b/i.test(response.contentType)) throw new Error(`${url} is ${response.contentType || 'without a Content-Type'}, not text/plain`);
    return response.body;
  }

  async function resolve(domain: string): Promise<ActiveSts | null> {
    const stored = readStsPolicy(db, domain);
    const now = clock.now();
    const cached = stored && stored.expiresAt > now ? stored : null;
    const active = (text: string): ActiveSts | null => {
      const policy = parseStsPolicy(text);
      return policy.mode === 'none' ? null : { policy, lines: linesOf(text) };
    };
    let id: string | null;
    try {
      id = stsRecordId(await dns.txt(`_mta-sts.${domain}`));
    } catch {
      // DNS failing is no news of the policy: the cached one holds until it expires (RFC 8461)
      return cached && active(cached.text);
    }
    if (id === null || (cached && cached.recordId === id)) return cached && active(cached.text);
    let text: string;
    try {
      text = await fetchPolicy(domain);
    } catch (err) {
      deps.onFetchFailure(domain, failureOf(err));
      return cached && active(cached.text);
    }
    let policy: StsPolicy;
    try {
      policy = parseStsPolicy(text);
    } catch (err) {
      deps.onFetchFailure(domain, { resultType: 'sts-policy-invalid', detail: (err as Error).message });
      return cached && active(cached.text);
    }
    saveStsPolicy(db, domain, { recordId: id, text, fetchedAt: now, expiresAt: now + policy.maxAge * 1000 });
    return active(text);
  }

  const policyOf = keptFor(clock, RECHECK_MS, MAX_DOMAINS, resolve);
  return { policyOf: (domain) => policyOf(domain.toLowerCase()) };
}
