import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

export interface DkimKey {
  selector: string;
  /** Base64 DER SubjectPublicKeyInfo, the `p=` of the DKIM record. */
  publicKey: string;
  /** PKCS#8 PEM, what nodemailer's `dkim.privateKey` takes. */
  privateKey: string;
}

/** `pm` + year and month + random hex: new per registration, so a re-added domain never meets a stale record. */
function newSelector(now: number): string {
  const stamp = new Date(now).toISOString().slice(2, 7).replace('-', '');
  return `pm${stamp}${randomBytes(2).toString('hex')}`;
}

/** A fresh RSA-2048 key pair, generated off the event loop. */
export async function generateDkimKey(now: number): Promise<DkimKey> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { selector: newSelector(now), publicKey: publicKey.toString('base64'), privateKey };
}
