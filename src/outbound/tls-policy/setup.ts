// The outbound TLS policy as the configuration asks for it (delivery.tls.*).
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { settingFailed } from '../../config.js';
import type { Core } from '../../core.js';
import type { Dns } from '../../dns/resolver.js';
import { lookupTlsa } from '../../dns/tlsa.js';
import type { TlsPolicies } from '../engine/tls.js';
import { trustsAdBit } from './dane.js';
import { createMtaSts } from './mta-sts.js';
import { createTlsPolicies } from './policy.js';
import { countSession, reportDay } from './store.js';

/** Node's roots and the configured file's certificates; null when no file is configured (Node's roots apply by default). */
export function trustedCas(caFile: string | null): string[] | null {
  if (caFile === null) return null;
  try {
    return [...rootCertificates, readFileSync(caFile, 'utf8')];
  } catch (err) {
    throw settingFailed('delivery.tls.caFile', `cannot read ${caFile} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

export function tlsPolicies(core: Core, dns: Dns): TlsPolicies {
  const { db, clock, config, log } = core;
  const settings = config.delivery.tls;
  const ca = trustedCas(settings.caFile);
  const daneTrusted = settings.dane && trustsAdBit(config.dns.servers);
  if (settings.dane && !daneTrusted) {
    log.warn('delivery.tls.dane is on but dns.servers is not a local validating resolver (loopback addresses only): DANE is not applied', { servers: config.dns.servers });
  }
  const mtaSts = settings.mtaSts
    ? createMtaSts({
        db,
        clock,
        dns,
        fetch: { allowPrivate: config.webhooks.allowPrivate, ...(ca ? { ca } : {}) },
        onFetchFailure(domain, failure) {
          log.info('MTA-STS policy not fetched', { domain, ...failure });
          countSession(db, { day: reportDay(clock.now()), policyDomain: domain, policyType: 'sts', policyString: [], mxHost: '', receivingIp: '', ...failure });
        },
      })
    : null;
  const server = config.dns.servers[0];
  return createTlsPolicies({
    db,
    clock,
    mtaSts,
    tlsa: daneTrusted && server ? (name) => lookupTlsa(server, name) : null,
    overrides: settings.domains,
    secureContext: ca ? createSecureContext({ ca }) : null,
  });
}
