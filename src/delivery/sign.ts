import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';
import DKIM from 'nodemailer/lib/dkim';
import type { DkimSigning } from '../domains/signing.js';

/** Parsing a PEM key costs twice the RSA signature itself: each domain's key is parsed once per mail thread (where signing runs). */
const parsedKeys = new Map<string, KeyObject>();

function keyObject(pem: string): KeyObject {
  let key = parsedKeys.get(pem);
  if (!key) {
    if (parsedKeys.size > 1000) parsedKeys.clear();
    parsedKeys.set(pem, (key = createPrivateKey(pem)));
  }
  return key;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Prepends a DKIM-Signature (relaxed/relaxed, rsa-sha256, nodemailer's usual header set). */
export function signMessage(raw: Buffer, key: DkimSigning): Promise<Buffer> {
  // nodemailer hands privateKey to crypto's Sign#sign, which takes a KeyObject as well as PEM text.
  const privateKey = keyObject(key.privateKey) as unknown as string;
  return collect(new DKIM({ domainName: key.domainName, keySelector: key.keySelector, privateKey }).sign(raw));
}
