import { iso, isoOrNull } from '../clock.js';
import { domainRecords } from './records.js';
import type { Domain } from './store.js';

/** A domain as the API answers it: its state and the records to publish, never its private key. */
export const presentDomain = (d: Domain, hostname: string) => ({
  id: d.id,
  domain: d.domain,
  status: d.status,
  verified: d.status === 'verified',
  verifiedWithoutDns: d.verifiedWithoutDns,
  records: domainRecords(d, hostname),
  failureReason: d.failureReason,
  lastCheckedAt: isoOrNull(d.lastCheckedAt),
  createdAt: iso(d.createdAt),
  updatedAt: iso(d.updatedAt),
});
