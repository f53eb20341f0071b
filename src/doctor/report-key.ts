import type { Dns } from '../dns/resolver.js';
import { checkDkimRecord, judged } from '../domains/check.js';
import { reportKey, reportKeyRecord } from '../outbound/tls-policy/report-key.js';
import type { Db } from '../store/db.js';
import { failed, passed, type Check } from './check.js';

export const REPORT_KEY_CHECK = 'tls-rpt signing key';

/**
 * Whether the DKIM record of the key that signs TLS-RPT report mails is published under the host
 * name (RFC 8460 3: receivers ignore unsigned reports). The key is made here when the daemon has
 * not made it yet, so the record can be published before the first report goes out.
 */
export async function checkReportKey(db: Db, dns: Dns, hostname: string, now: number): Promise<Check> {
  const key = await reportKey(db, now);
  const record = reportKeyRecord(key, hostname);
  const found = await judged(record.name, dns.txt(record.name), (texts) => checkDkimRecord(texts, record.name, { algorithm: 'rsa', publicKey: key.publicKey }));
  if (found.verified === true) return passed(REPORT_KEY_CHECK, `${record.name} publishes the key that signs TLS-RPT report mails (d=${hostname})`);
  return failed(
    REPORT_KEY_CHECK,
    `${found.reason}: TLS-RPT report mails are signed with this key, and receivers ignore reports whose signature does not verify`,
    `Publish TXT ${record.name} = ${record.value} (split into strings of at most 255 characters if your DNS host asks for that), or turn delivery.tls.reports off`,
  );
}
