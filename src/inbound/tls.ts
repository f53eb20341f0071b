import { readFileSync } from 'node:fs';
import type { Ctx } from '../context.js';
import { sql } from '../store/db.js';

export interface TlsMaterial {
  key: string;
  cert: string;
}

const KEY = 'smtp.tls.key';
const CERT = 'smtp.tls.cert';

/**
 * The STARTTLS certificate: the configured PEM files, or a self-signed one generated at first
 * start and kept in the store (senders to port 25 encrypt opportunistically and do not verify it).
 */
export async function tlsMaterial(ctx: Ctx): Promise<TlsMaterial> {
  const { tlsKey, tlsCert } = ctx.config.smtp;
  if (tlsKey && tlsCert) return { key: readFileSync(tlsKey, 'utf8'), cert: readFileSync(tlsCert, 'utf8') };
  const stored = sql(ctx.db, 'SELECT name, value FROM settings WHERE name IN (?, ?)').all(KEY, CERT) as { name: string; value: string }[];
  const byName = new Map(stored.map((r) => [r.name, r.value]));
  if (byName.has(KEY) && byName.has(CERT)) return { key: byName.get(KEY)!, cert: byName.get(CERT)! };
  // Loaded only on the first start: the certificate library is slow to load and needed once.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: ctx.config.hostname }], { keySize: 2048, notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600_000) });
  ctx.db.transaction(() => {
    for (const [name, value] of [
      [KEY, pems.private],
      [CERT, pems.cert],
    ] as const) {
      sql(ctx.db, 'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
    }
  })();
  return { key: pems.private, cert: pems.cert };
}
