import { createHash, generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashRelaxedBody, relaxedHeader } from '../src/outbound/dkim/canonical.js';
import type { DkimSigning } from '../src/outbound/dkim/sign.js';
import { signParts } from '../src/outbound/dkim/sign.js';

/** The message as it goes on the wire: its signature header in front. */
const signMessage = (raw: Buffer, key: DkimSigning, now: number) => {
  const { header, message } = signParts(raw, key, now);
  return Buffer.concat([header, message]);
};

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'der' },
});
const key: DkimSigning = { domainName: 'sender.test', keys: [{ keySelector: 'sel', privateKey }] };
const record = `v=DKIM1; k=rsa; p=${publicKey.toString('base64')}`;

async function verifies(raw: Buffer): Promise<boolean> {
  const { results } = await dkimVerify(raw, {
    resolver: async (name: string) => {
      if (name !== 'sel._domainkey.sender.test') throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
      return [[record]];
    },
  });
  return results.some((r) => r.status.result === 'pass');
}

/** RFC 6376 3.4.4 as written, over the text: the reference the byte-level hashing must match. */
function referenceRelaxedBody(body: string): string {
  const lines = body
    .replace(/[ \t]+/g, ' ')
    .replace(/ (?=\r\n|$)/g, '')
    .replace(/(?:\r\n)+$/, '');
  return lines === '' ? '' : `${lines}\r\n`;
}

const header = 'From: Ann <ann@sender.test>\r\nTo: bo@rcpt.test\r\nSubject: Hello\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\nMessage-ID: <m1@sender.test>\r\n';

test('relaxed body hashing matches the RFC text over bodies of spaces, tabs, empty and trailing lines', () => {
  const parts = ['a', 'bc', ' ', '  ', '\t', ' \t ', '\r\n', '\r\n\r\n', '.'];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let n = 0; n < 2000; n++) {
    const body = Array.from({ length: Math.floor(random() * 14) }, () => parts[Math.floor(random() * parts.length)]).join('');
    const hash = createHash('sha256');
    hashRelaxedBody(hash, Buffer.from(body, 'latin1'));
    assert.is(hash.digest('base64'), createHash('sha256').update(referenceRelaxedBody(body), 'latin1').digest('base64'), JSON.stringify(body));
  }
});

test('relaxed header: lower-case name, unfolded, one space for each run, none around the colon', () => {
  assert.is(relaxedHeader('Subject :  Hello \t there  '), 'subject:Hello there');
  assert.is(relaxedHeader('To: a@x.test,\r\n\tb@x.test'), 'to:a@x.test, b@x.test');
  assert.is(relaxedHeader('X-Empty:'), 'x-empty:');
});

test('signed messages verify with mailauth, whatever their spacing and line ends', async () => {
  const bodies = [
    'Hello\r\n',
    'Hello  there\t\r\n \r\nend \r\n\r\n\r\n',
    'no final line end',
    '',
    'bare\nline\nfeeds\n',
    '\u00e9t\u00e9 \u00a0 nbsp stays\r\n',
  ];
  for (const body of bodies) {
    const raw = Buffer.from(`${header}\r\n${body}`, 'latin1');
    const now = Date.now();
    const signed = signMessage(raw, key, now);
    assert.ok(await verifies(signed), JSON.stringify(body));
    // the parts a mail thread hands back: the header, and the message itself, not a copy of it
    const parts = signParts(raw, key, now);
    assert.ok(Buffer.concat([parts.header, parts.message]).equals(signed));
    const bareLineEnd = /\r(?!\n)|(?<!\r)\n/.test(raw.toString('latin1'));
    if (!bareLineEnd) assert.is(parts.message, raw, JSON.stringify(body));
  }
});

test('folded and repeated headers: the bottom instance is signed first, copies beyond are covered', async () => {
  const raw = Buffer.from(`${header}X-Tag: one\r\nX-Tag: two\r\nReferences: <a@x>\r\n <b@x>\r\n\r\nbody\r\n`, 'latin1');
  const signed = signMessage(raw, key, Date.now());
  assert.ok(await verifies(signed));
  const text = signed.toString('latin1');
  assert.is(await verifies(Buffer.from(text.replace('X-Tag: one', 'X-Tag: 1'), 'latin1')), false, 'each instance is signed');
  assert.is(await verifies(Buffer.from(text.replace('References: <a@x>', 'References: <z@x>'), 'latin1')), false, 'folded value is signed');
});

test('two keys: an rsa-sha256 and an ed25519-sha256 signature (RFC 8463), each verifying on its own with its record', async () => {
  const ed = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'der' } });
  const edRecord = `v=DKIM1; k=ed25519; p=${ed.publicKey.subarray(-32).toString('base64')}`;
  const signing: DkimSigning = { domainName: 'sender.test', keys: [{ keySelector: 'sel', privateKey }, { keySelector: 'ed', privateKey: ed.privateKey }] };
  const raw = Buffer.from(`${header}\r\nHello  there\r\n`, 'latin1');
  const signed = signMessage(raw, signing, Date.now());
  const fields = signed.toString('latin1').split('\r\n\r\n')[0]!.replace(/\r\n[ \t]/g, ' ').split('\r\n').filter((f) => f.startsWith('DKIM-Signature:'));
  assert.equal(fields.map((f) => [/ a=([^;]+);/.exec(f)?.[1], / s=([^;]+);/.exec(f)?.[1]]), [
    ['rsa-sha256', 'sel'],
    ['ed25519-sha256', 'ed'],
  ]);
  const results = async (published: Record<string, string>) =>
    (
      await dkimVerify(signed, {
        resolver: async (name: string) => {
          const record = published[name];
          if (!record) throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
          return [[record]];
        },
      })
    ).results.map((r) => [r.selector, r.status.result]);
  assert.equal(await results({ 'sel._domainkey.sender.test': record, 'ed._domainkey.sender.test': edRecord }), [
    ['sel', 'pass'],
    ['ed', 'pass'],
  ]);
  // each stands alone: without the RSA record the Ed25519 signature still passes
  assert.equal((await results({ 'ed._domainkey.sender.test': edRecord }))[1], ['ed', 'pass']);
});

test.run();
