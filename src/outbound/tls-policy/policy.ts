// The outbound TLS policy of a recipient domain, as the delivery engine asks it: which of the domain's
// MX hosts mail may go to, and for each, what its TLS session must satisfy before it carries mail.
// Order: a configured override, then DANE for an MX host with validated TLSA records, then the
// domain's MTA-STS policy, else opportunistic STARTTLS (RFC 7435). Each checked session is counted
// for TLS-RPT under its policy domain.
import type { SecureContext, TLSSocket } from 'node:tls';
import type { Clock } from '../../clock.js';
import type { TlsOverride } from '../../config.js';
import type { TlsaAnswer } from '../../dns/tlsa.js';
import { keptFor } from '../../memo.js';
import type { Db } from '../../store/db.js';
import type { RouteHost } from '../engine/route.js';
import type { SessionCheck, TlsPolicies } from '../engine/tls.js';
import { daneMismatch, presentedChain, tlsaText, usableTlsa } from './dane.js';
import { policyAllows } from './mta-sts-policy.js';
import type { ActiveSts, MtaSts } from './mta-sts.js';
import { countSession, reportDay, type SessionOutcome } from './store.js';

export interface TlsPolicyDeps {
  db: Db;
  clock: Clock;
  /** null: MTA-STS off. */
  mtaSts: MtaSts | null;
  /** null: DANE off (not configured, or the resolver's AD bit is not to be believed). */
  tlsa: ((name: string) => Promise<TlsaAnswer>) | null;
  overrides: Record<string, TlsOverride>;
  /** Trusts the system's roots and delivery.tls.caFile's certificates; null: the system's only. */
  secureContext: SecureContext | null;
}

type Failure = { resultType: string; detail: string };

/** The RFC 8460 result type of a session that should have had a certificate valid for the host. */
function webpkiFailure(socket: TLSSocket | null): Failure | null {
  if (!socket) return { resultType: 'starttls-not-supported', detail: 'the server does not offer STARTTLS' };
  if (socket.authorized) return null;
  const code = String(socket.authorizationError);
  const resultType = code === 'CERT_HAS_EXPIRED' ? 'certificate-expired' : code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'certificate-host-mismatch' : 'certificate-not-trusted';
  return { resultType, detail: code };
}

const TLSA_KEEP_MS = 5 * 60_000;
const MAX_TLSA_NAMES = 10_000;

export function createTlsPolicies(deps: TlsPolicyDeps): TlsPolicies {
  const { db, clock, secureContext } = deps;
  const tlsaOf = deps.tlsa && keptFor(clock, TLSA_KEEP_MS, MAX_TLSA_NAMES, deps.tlsa);

  const count = (outcome: Omit<SessionOutcome, 'day'>) => countSession(db, { ...outcome, day: reportDay(clock.now()) });

  function overrideCheck(domain: string, override: 'require' | 'verify'): SessionCheck {
    return {
      key: `override:${override}`,
      secureContext,
      check(socket) {
        const failure = override === 'require' ? (socket ? null : webpkiFailure(null)) : webpkiFailure(socket);
        return failure && `TLS required for ${domain} (delivery.tls.domains: ${override}): ${failure.resultType} (${failure.detail})`;
      },
    };
  }

  function stsCheck(domain: string, sts: ActiveSts, host: string): SessionCheck {
    const { policy, lines } = sts;
    const listed = policyAllows(policy, host);
    const base = { policyDomain: domain, policyType: 'sts' as const, policyString: lines };
    return {
      key: `sts:${domain}`,
      secureContext,
      check(socket, address) {
        const failure: Failure | null = listed ? webpkiFailure(socket) : { resultType: 'validation-failure', detail: `${host} is not an mx of the policy` };
        if (!failure) {
          count({ ...base, resultType: 'success', mxHost: '', receivingIp: '', detail: '' });
          return null;
        }
        count({ ...base, ...failure, mxHost: host, receivingIp: address });
        return policy.mode === 'enforce' ? `MTA-STS policy of ${domain} (enforce): ${host}: ${failure.resultType} (${failure.detail})` : null;
      },
    };
  }

  function daneCheck(domain: string, host: string, records: TlsaAnswer['records']): SessionCheck {
    const base = { policyDomain: domain, policyType: 'tlsa' as const, policyString: records.map(tlsaText) };
    return {
      key: `dane:${domain}`,
      secureContext: null,
      check(socket, address) {
        const why = socket ? daneMismatch(records, presentedChain(socket), host, clock.now()) : 'the server does not offer STARTTLS';
        if (why === null) {
          count({ ...base, resultType: 'success', mxHost: '', receivingIp: '', detail: '' });
          return null;
        }
        count({ ...base, resultType: socket ? 'validation-failure' : 'starttls-not-supported', mxHost: host, receivingIp: address, detail: why });
        return `DANE (TLSA of ${host}): ${why}`;
      },
    };
  }

  /** A host whose TLSA lookup failed: a validating resolver answers SERVFAIL for a bogus (attacked) answer. */
  const tlsaFailed = (host: string, err: unknown): SessionCheck => ({
    key: 'dane:unknown',
    secureContext: null,
    check: () => `DANE: the TLSA lookup of ${host} failed (${err instanceof Error ? err.message : String(err)})`,
  });

  async function daneChecks(domain: string, hosts: RouteHost[], port: number): Promise<(SessionCheck | null)[]> {
    if (!tlsaOf) return hosts.map(() => null);
    return Promise.all(
      hosts.map(async (host) => {
        try {
          const answer = await tlsaOf(`_${port}._tcp.${host.name}`);
          const usable = answer.secure ? usableTlsa(answer.records) : [];
          return usable.length > 0 ? daneCheck(domain, host.name, usable) : null;
        } catch (err) {
          return tlsaFailed(host.name, err);
        }
      }),
    );
  }

  return {
    async plan(domain, hosts, port) {
      const override = deps.overrides[domain];
      if (override === 'opportunistic') return { ok: true, hosts: hosts.map((host) => ({ ...host, check: null })) };
      if (override) {
        const check = overrideCheck(domain, override);
        return { ok: true, hosts: hosts.map((host) => ({ ...host, check })) };
      }
      const [dane, sts] = await Promise.all([daneChecks(domain, hosts, port), deps.mtaSts ? deps.mtaSts.policyOf(domain) : null]);
      const planned = hosts.map((host, i) => ({ ...host, check: dane[i] ?? (sts ? stsCheck(domain, sts, host.name) : null) }));
      if (!sts || sts.policy.mode !== 'enforce') return { ok: true, hosts: planned };
      // under enforce, an MX host the policy does not name gets no mail (unless DANE vouches for it)
      const allowed = planned.filter((host, i) => dane[i] !== null || policyAllows(sts.policy, host.name));
      if (allowed.length > 0) return { ok: true, hosts: allowed };
      // no session is tried: the delivery attempt is the failed session TLS-RPT counts
      for (const host of hosts) {
        count({ policyDomain: domain, policyType: 'sts', policyString: sts.lines, resultType: 'validation-failure', mxHost: host.name, receivingIp: '', detail: `${host.name} is not an mx of the policy` });
      }
      return { ok: false, reason: `MTA-STS policy of ${domain} (enforce) names none of its MX hosts (${hosts.map((h) => h.name).join(', ')}); policy mx: ${sts.policy.mx.join(', ')}` };
    },
  };
}
