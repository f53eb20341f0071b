import { generateKeyPairSync } from 'node:crypto';
import { generate } from 'selfsigned';

/** One key for every certificate a test makes: RSA key generation is most of a certificate's cost. */
let sharedKey: { privateKey: string; publicKey: string } | null = null;
const keyPair = () =>
  (sharedKey ??= generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }));

/** A certificate and its key, PEM. */
export interface Pem {
  key: string;
  cert: string;
}

export interface TestCa extends Pem {
  /** A certificate signed by this CA for `names` (DNS SANs); `expired` makes one that ended yesterday. */
  issue(names: string[], opts?: { expired?: boolean }): Promise<Pem>;
}

const DAY = 24 * 3600_000;

/** A CA of the test's own , whose file the daemon trusts through delivery.tls.caFile. */
export async function createTestCa(): Promise<TestCa> {
  const ca = await generate([{ name: 'commonName', value: 'Postmill Test CA' }], {
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - DAY),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return {
    key: ca.private,
    cert: ca.cert,
    async issue(names, opts = {}) {
      const notBeforeDate = new Date(Date.now() - (opts.expired ? 10 * DAY : DAY));
      const notAfterDate = new Date(Date.now() + (opts.expired ? -DAY : 30 * DAY));
      const leaf = await generate([{ name: 'commonName', value: names[0]! }], {
            algorithm: 'sha256',
        keyPair: keyPair(),
        notBeforeDate,
        notAfterDate,
        ca: { key: ca.private, cert: ca.cert },
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) },
        ],
      });
      return { key: leaf.private, cert: leaf.cert };
    },
  };
}

/** A certificate signed by nobody the daemon trusts. */
export async function selfSigned(names: string[]): Promise<Pem> {
  const pems = await generate([{ name: 'commonName', value: names[0]! }], {
    algorithm: 'sha256',
    keyPair: keyPair(),
    extensions: [{ name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) }],
  });
  return { key: pems.private, cert: pems.cert };
}
