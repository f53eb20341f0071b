import type { Config } from '../config.js';
import { createDns } from '../dns/resolver.js';
import { openStore } from '../store/db.js';
import type { Check } from './check.js';
import { checkClock } from './clock.js';
import { checkDomains } from './domains.js';
import { checkOutbound } from './outbound.js';
import { checkPublicUrl } from './public-url.js';
import { checkReverseDns } from './reverse-dns.js';

export interface DoctorOptions {
  /** A domain whose MX is tried on delivery.port. */
  probeDomain: string;
  /** `host[:port]` of an NTP server. */
  ntpServer: string;
}

/** What a new install gets wrong, checked from this machine with its configuration and store. */
export async function runDoctor(config: Config, options: DoctorOptions): Promise<Check[]> {
  const dns = createDns(config.dns.servers);
  const db = openStore(config.dataDir);
  try {
    const [outbound, reverse, domains, publicUrl, clock] = await Promise.all([
      checkOutbound(config, dns, options.probeDomain),
      checkReverseDns(dns, config.hostname),
      checkDomains(db, dns, config.hostname),
      checkPublicUrl(config),
      checkClock(dns, options.ntpServer),
    ]);
    return [outbound, reverse, ...domains, publicUrl, clock];
  } finally {
    db.close();
  }
}
