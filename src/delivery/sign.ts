import type { Readable } from 'node:stream';
import DKIM from 'nodemailer/lib/dkim';
import type { DkimSigning } from '../domains/signing.js';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Prepends a DKIM-Signature (relaxed/relaxed, rsa-sha256, nodemailer's usual header set). */
export function signMessage(raw: Buffer, key: DkimSigning): Promise<Buffer> {
  return collect(new DKIM({ domainName: key.domainName, keySelector: key.keySelector, privateKey: key.privateKey }).sign(raw));
}
