import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { createDns } from '../../src/dns/resolver.js';

/**
 * Verifies the DKIM signatures of a message, reading keys from the loopback DNS server at
 * `dnsAddress`. `pass` is true when at least one signature passes.
 */
export async function verifyDkim(raw: Buffer, dnsAddress: string): Promise<{ pass: boolean; results: unknown[] }> {
  const dns = createDns([dnsAddress]);
  const { results } = await dkimVerify(raw, {
    async resolver(name, rrtype) {
      if (rrtype !== 'TXT') throw new Error(`DKIM verification asked for ${rrtype} records`);
      const records = await dns.txt(name);
      // mailauth tells "no key" from other failures by node:dns's error codes.
      if (records.length === 0) throw Object.assign(new Error(`no TXT record at ${name}`), { code: 'ENOTFOUND' });
      return records;
    },
  });
  return { pass: results.some((result) => result.status.result === 'pass'), results };
}
