// The reporting domain's DKIM key (RFC 8460 3: report mails MUST carry a valid DKIM signature of the
// reporting domain, else they are ignored). The reports belong to the daemon, not to a project, so
// the key does too: one RSA-2048 key for d=<hostname>, made by whoever needs it first (the daemon
// signing a report, or `postmill doctor` telling the record to publish) and kept in the settings.
import { generateRsaKey } from '../../domains/keys.js';
import { dkimName } from '../../domains/records.js';
import type { Db } from '../../store/db.js';
import { readSetting, settingOrCreate } from '../../store/settings.js';
import type { DkimSigning } from '../dkim/sign.js';

const SETTING = 'tls-rpt.dkim-key';

export interface ReportKey {
  selector: string;
  /** The `p=` of the record: base64 DER SubjectPublicKeyInfo. */
  publicKey: string;
  /** PKCS#8 PEM. */
  privateKey: string;
}

/** The stored key, or a new one stored first (two processes making one at once agree on the first stored). */
export async function reportKey(db: Db, now: number): Promise<ReportKey> {
  const stored = readSetting(db, SETTING);
  if (stored) return JSON.parse(stored) as ReportKey;
  const { selector, publicKey, privateKey } = await generateRsaKey(now);
  return JSON.parse(settingOrCreate(db, SETTING, () => JSON.stringify({ selector, publicKey, privateKey } satisfies ReportKey))) as ReportKey;
}

/** The TXT record that publishes the key; `s=tlsrpt` limits it to TLS reports (RFC 8460 3). */
export const reportKeyRecord = (key: ReportKey, hostname: string) => ({
  name: dkimName(key.selector, hostname),
  value: `v=DKIM1; k=rsa; s=tlsrpt; p=${key.publicKey}`,
});

/** Signing with the key as d=<hostname>; the signer covers every header, TLS-Report-Domain and -Submitter among them, and sets no l=. */
export const reportSigning = (key: ReportKey, hostname: string): DkimSigning => ({
  domainName: hostname,
  keys: [{ keySelector: key.selector, privateKey: key.privateKey }],
});
