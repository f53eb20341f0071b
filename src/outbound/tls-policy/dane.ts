// DANE for SMTP (RFC 7672): which resolvers are believed, which TLSA records are usable, and whether a
// server's certificate chain matches them. Pure, except for reading the certificates node:tls gives.
import { createHash, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { serverAddress, type TlsaRecord } from '../../dns/tlsa.js';

/**
 * The AD bit is believed only from a resolver on this machine (Postfix's rule): between here and a
 * remote one anyone on the path could set it.
 */
export function isLoopbackResolver(server: string): boolean {
  const { host } = serverAddress(server);
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

export const trustsAdBit = (servers: string[]): boolean => servers.length > 0 && servers.every(isLoopbackResolver);

/** RFC 7672 3.1: only DANE-TA(2) and DANE-EE(3) apply to SMTP; selectors 0 and 1, matching types 0, 1, 2. */
export const usableTlsa = (records: TlsaRecord[]): TlsaRecord[] =>
  records.filter((r) => (r.usage === 2 || r.usage === 3) && (r.selector === 0 || r.selector === 1) && r.matchingType <= 2);

/** A record as TLS-RPT quotes it: `3 1 1 <hex>`. */
export const tlsaText = (r: TlsaRecord): string => `${r.usage} ${r.selector} ${r.matchingType} ${r.data.toString('hex')}`;

function selected(cert: X509Certificate, selector: number): Buffer {
  return selector === 0 ? cert.raw : (cert.publicKey.export({ type: 'spki', format: 'der' }) as Buffer);
}

function matches(record: TlsaRecord, cert: X509Certificate): boolean {
  const data = selected(cert, record.selector);
  const digest = record.matchingType === 0 ? data : createHash(record.matchingType === 1 ? 'sha256' : 'sha512').update(data).digest();
  return digest.equals(record.data);
}

/** The chain the server presented, its own certificate first. */
export function presentedChain(socket: TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let cert = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return chain;
}

const inDate = (cert: X509Certificate, now: number) => Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);

/**
 * Null when the chain satisfies one of the records, else why not. DANE-EE(3) matches the server's
 * own certificate, whatever its names and dates (RFC 7672 3.1.1); DANE-TA(2) matches a certificate
 * the server sent above its own, which must have issued the chain down to a certificate that is in
 * date and valid for the MX host (3.1.2).
 */
export function daneMismatch(records: TlsaRecord[], chain: X509Certificate[], mxHost: string, now: number): string | null {
  const leaf = chain[0];
  if (!leaf) return 'the server sent no certificate';
  if (records.some((r) => r.usage === 3 && matches(r, leaf))) return null;
  for (const r of records.filter((record) => record.usage === 2)) {
    const anchor = chain.findIndex((cert, i) => i > 0 && matches(r, cert));
    if (anchor < 0) continue;
    const path = chain.slice(0, anchor + 1);
    const issued = path.slice(0, -1).every((cert, i) => cert.checkIssued(path[i + 1]!) && cert.verify(path[i + 1]!.publicKey));
    if (!issued) return `the chain to the DANE-TA certificate does not verify`;
    if (!path.slice(0, -1).every((cert) => inDate(cert, now))) return 'a certificate below the DANE-TA certificate is out of date';
    if (!leaf.checkHost(mxHost)) return `the certificate is not valid for ${mxHost}`;
    return null;
  }
  return `no TLSA record of ${mxHost} matches the certificate chain`;
}
