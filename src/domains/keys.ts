import { generateKeyPair, generateKeyPairSync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** RSA-SHA256 (RFC 6376) on every domain; Ed25519-SHA256 (RFC 8463) beside it where the project turns it on. */
export type DkimAlgorithm = 'rsa' | 'ed25519';

export interface NewDkimKey {
  selector: string;
  algorithm: DkimAlgorithm;
  /** The `p=` of the DKIM record: base64 DER SubjectPublicKeyInfo for RSA, the raw 32-byte key for Ed25519 (RFC 8463 4). */
  publicKey: string;
  /** PKCS#8 PEM, for either algorithm. */
  privateKey: string;
}

/** `pm` + year and month + random hex: new per key, so a re-added domain or a rotation never meets a stale record. */
function newSelector(now: number): string {
  const stamp = new Date(now).toISOString().slice(2, 7).replace('-', '');
  return `pm${stamp}${randomBytes(2).toString('hex')}`;
}

/** A fresh RSA-2048 key pair, generated off the event loop (it takes tens of milliseconds). */
export async function generateRsaKey(now: number): Promise<NewDkimKey> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { selector: newSelector(now), algorithm: 'rsa', publicKey: publicKey.toString('base64'), privateKey };
}

/** The DER SubjectPublicKeyInfo of an Ed25519 key is a fixed 12-byte prefix and the 32 raw bytes. */
const ED25519_RAW_BYTES = 32;

/** A fresh Ed25519 key pair: under a millisecond, so it is made inside the transaction that stores it. */
export function generateEd25519Key(now: number): NewDkimKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { selector: newSelector(now), algorithm: 'ed25519', publicKey: publicKey.subarray(publicKey.length - ED25519_RAW_BYTES).toString('base64'), privateKey };
}
