import { isIP } from 'node:net';
import type { Config } from '../config.js';
import { createDns } from '../dns/resolver.js';
import { listAllDomains } from '../domains/store.js';
import { openStore } from '../store/db.js';
import { hostAndPort, notChecked, type Check } from './check.js';
import { checkClock } from './clock.js';
import { checkDns } from './dns.js';
import { checkDomains, domainCheckNames } from './domains.js';
import { checkHostnameName, HOSTNAME_CHECK } from './hostname.js';
import { checkOutbound, outboundNeedsDns } from './outbound.js';
import { checkPublicUrl } from './public-url.js';
import { checkReportKey, REPORT_KEY_CHECK } from './report-key.js';
import { checkReverseDns } from './reverse-dns.js';

export interface DoctorOptions {
  /** A domain whose MX is tried on delivery.port. */
  probeDomain: string;
  /** `host[:port]` of an NTP server. */
  ntpServer: string;
}

/**
 * What a new install gets wrong, checked from this machine with its configuration and store. DNS
 * comes first: while it does not answer, the checks that look names up through it are reported as
 * not checked rather than failing with advice that would send the operator the wrong way.
 */
export async function runDoctor(config: Config, options: DoctorOptions): Promise<Check[]> {
  const dnsCheck = await checkDns(config.dns.servers);
  const dns = createDns(config.dns.servers);
  const db = openStore(config.dataDir);
  const viaDns = (needed: boolean, names: string[], check: () => Promise<Check[]>): Promise<Check[]> =>
    dnsCheck.ok || !needed ? check() : Promise.resolve(names.map(notChecked));
  try {
    const domainNames = listAllDomains(db).flatMap((d) => domainCheckNames(d.domain));
    const checks = await Promise.all([
      viaDns(outboundNeedsDns(config), ['outbound-smtp'], async () => [await checkOutbound(config, dns, options.probeDomain)]),
      // a name without a dot is wrong whatever DNS answers
      viaDns(config.hostname.includes('.'), [HOSTNAME_CHECK], async () => [await checkHostnameName(dns, config.hostname)]),
      viaDns(true, ['reverse-dns'], async () => [await checkReverseDns(dns, config.hostname)]),
      // no domains: nothing to look up, the check says so
      viaDns(domainNames.length > 0, domainNames, () => checkDomains(db, dns, config.hostname, { overlapDays: config.dkim.rotationOverlapDays, now: Date.now() })),
      // RFC 8460 3: report mails need the daemon's DKIM record; without reports there are none
      config.delivery.tls.reports ? viaDns(true, [REPORT_KEY_CHECK], async () => [await checkReportKey(db, dns, config.hostname, Date.now())]) : Promise.resolve([]),
      checkPublicUrl(config).then((c) => [c]),
      viaDns(!isIP(hostAndPort(options.ntpServer, 123).host), ['clock'], async () => [await checkClock(dns, options.ntpServer)]),
    ]);
    return [dnsCheck, ...checks.flat()];
  } finally {
    db.close();
  }
}
