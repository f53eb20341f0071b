import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { settingFailed } from '../config.js';
import type { Core } from '../core.js';
import { readSetting, writeSetting } from '../store/settings.js';

export interface TlsMaterial {
  key: string;
  cert: string;
}

const KEY = 'smtp.tls.key';
const CERT = 'smtp.tls.cert';

function readPem(path: string, key: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw settingFailed(key, `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** The configured files, checked now rather than at a client's first STARTTLS. */
function configuredMaterial(keyFile: string, certFile: string): TlsMaterial {
  const material = { key: readPem(keyFile, 'smtp.tlsKey'), cert: readPem(certFile, 'smtp.tlsCert') };
  try {
    createSecureContext(material);
  } catch (err) {
    throw settingFailed('smtp.tlsCert', `${certFile} and ${keyFile} are not a matching PEM certificate and key (${(err as Error).message})`);
  }
  return material;
}

/**
 * The STARTTLS certificate: the configured PEM files, or a self-signed one generated at first
 * start and kept in the store (senders to port 25 encrypt opportunistically and do not verify it).
 */
export async function tlsMaterial(core: Core): Promise<TlsMaterial> {
  const { tlsKey, tlsCert } = core.config.smtp;
  if (tlsKey && tlsCert) return configuredMaterial(tlsKey, tlsCert);
  const [key, cert] = [readSetting(core.db, KEY), readSetting(core.db, CERT)];
  if (key !== null && cert !== null) return { key, cert };
  // Loaded only on the first start: the certificate library is slow to load and needed once.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: core.config.hostname }], { keySize: 2048, notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600_000) });
  core.db.transaction(() => {
    for (const [name, value] of [
      [KEY, pems.private],
      [CERT, pems.cert],
    ] as const) {
      writeSetting(core.db, name, value);
    }
  })();
  return { key: pems.private, cert: pems.cert };
}
