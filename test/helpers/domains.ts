import * as assert from 'uvu/assert';
import type { TestDaemon } from './daemon.js';
import type { TestDnsServer } from './dns-server.js';

export interface PublishedRecord {
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  priority?: number;
  purpose: 'dkim' | 'bounce' | 'spf' | 'dmarc';
  verified: boolean;
}

export interface RegisteredDomain {
  id: string;
  domain: string;
  status: string;
  records: PublishedRecord[];
  createdAt: string;
}

/** Serves the records `POST /domains` answered on the loopback DNS server (each has its own name and type). */
export function publishRecords(dns: TestDnsServer, records: PublishedRecord[]): void {
  for (const record of records) {
    if (record.type === 'TXT') dns.set(record.name, 'TXT', [record.value]);
    else dns.set(record.name, 'MX', [{ exchange: record.value, priority: record.priority ?? 10 }]);
  }
}

/**
 * Registers `domain` (for the project of `key`, default the daemon's), publishes its records on
 * `dns` and verifies it; asserts every step and answers the domain as `POST /domains` returned it.
 */
export async function verifyDomain(daemon: TestDaemon, dns: TestDnsServer, domain: string, key = daemon.project.secretKey): Promise<RegisteredDomain> {
  const created = await daemon.request<RegisteredDomain>('POST', '/domains', { domain }, { key });
  assert.is(created.status, 201, JSON.stringify(created.body));
  publishRecords(dns, created.body.records);
  const verified = await daemon.request('GET', `/domains/${created.body.id}/verify`, undefined, { key });
  assert.is(verified.status, 200, JSON.stringify(verified.body));
  assert.is(verified.body.status, 'verified', JSON.stringify(verified.body));
  return created.body;
}
