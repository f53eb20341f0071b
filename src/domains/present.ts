import { iso, isoOrNull } from '../clock.js';
import type { Core } from '../core.js';
import { listDomainKeys, listProjectKeys, type DomainKey } from './key-store.js';
import { domainRecords, type KeyView } from './records.js';
import type { Domain } from './store.js';

/** A domain as the API answers it: its state and the records to publish (one per DKIM key), never a private key. */
export const presentDomain = (d: Domain, keys: DomainKey[], hostname: string, view: KeyView) => ({
  id: d.id,
  domain: d.domain,
  status: d.status,
  verified: d.status === 'verified',
  verifiedWithoutDns: d.verifiedWithoutDns,
  records: domainRecords(d, keys, hostname, view),
  failureReason: d.failureReason,
  lastCheckedAt: isoOrNull(d.lastCheckedAt),
  createdAt: iso(d.createdAt),
  updatedAt: iso(d.updatedAt),
});

/** Presents domains with their keys read from the store, as they stand now. */
export function domainPresenter(core: Pick<Core, 'db' | 'config' | 'clock'>) {
  const view = (): KeyView => ({ overlapDays: core.config.dkim.rotationOverlapDays, now: core.clock.now() });
  return {
    one: (d: Domain) => presentDomain(d, listDomainKeys(core.db, d.projectId, d.id), core.config.hostname, view()),
    /** Domains of one project: their keys in one read. */
    list: (projectId: string, domains: Domain[]) => {
      const keys = listProjectKeys(core.db, projectId);
      return domains.map((d) => presentDomain(d, keys.get(d.id) ?? [], core.config.hostname, view()));
    },
  };
}
