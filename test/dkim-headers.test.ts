import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyDkim } from './helpers/dkim-verify.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let marketing: string;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('sender.test');
  env.routeToSink('rcpt.test');
  const t = await env.daemon.request('POST', '/templates', {
    name: 'Newsletter',
    subject: 'News for {{name ?? you}}',
    body: '<p>Hi</p><a href="{{unsubscribeUrl}}">Unsubscribe</a>',
    from: 'news@sender.test',
    replyTo: 'desk@sender.test',
    type: 'MARKETING',
  });
  assert.is(t.status, 201, JSON.stringify(t.body));
  marketing = t.body.id;
});
test.after(async () => env.close());

/** Sends and answers the message as the MX received it. */
async function deliver(body: Record<string, unknown>): Promise<string> {
  const before = env.sink.messages.length;
  const r = await env.daemon.request('POST', '/v1/send', body);
  assert.is(r.status, 200, JSON.stringify(r.body));
  const messages = await env.sink.waitFor(before + 1, 8000);
  return messages[before]!.raw.toString('latin1');
}

/** The `h=` tag of the DKIM-Signature, names in order. */
function signedNames(raw: string): string[] {
  const header = /^DKIM-Signature:(.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  const h = /(?:^|;)\s*h=([^;]*)/.exec(header.replace(/\r\n[ \t]/g, ' '))?.[1] ?? '';
  return h.split(':').map((name) => name.trim().toLowerCase());
}

const count = (names: string[], name: string) => names.filter((n) => n === name).length;
const headerCount = (raw: string, name: string) => raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n').filter((l) => l.toLowerCase().startsWith(`${name}:`)).length;

/** Adds a header field: at the top of the header (where a relay puts its own), or at its bottom. */
function withHeader(raw: string, line: string, where: 'top' | 'bottom'): Buffer {
  if (where === 'top') return Buffer.from(`${line}\r\n${raw}`, 'latin1');
  const end = raw.indexOf('\r\n\r\n');
  return Buffer.from(`${raw.slice(0, end)}\r\n${line}${raw.slice(end)}`, 'latin1');
}

const verdict = async (raw: Buffer | string) => (await verifyDkim(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'latin1'), env.dns.address)).pass;

test('marketing mail: the signature covers both list headers, Reply-To, threading, Feedback-ID and caller headers, the shown ones once more than present', async () => {
  const raw = await deliver({
    to: 'reader@rcpt.test',
    template: marketing,
    subscribed: true,
    headers: {
      'In-Reply-To': '<earlier@sender.test>',
      References: '<first@sender.test> <earlier@sender.test>',
      'Feedback-ID': 'spring:newsletter:acme',
      'X-Entity-Ref-ID': 'issue-42',
      Importance: 'high',
    },
  });
  assert.ok(await verdict(raw), 'the delivered message verifies');
  const names = signedNames(raw);
  for (const name of ['from', 'to', 'subject', 'date', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post', 'reply-to', 'in-reply-to', 'references']) {
    assert.is(count(names, name), headerCount(raw, name) + 1, `${name} is listed once more than present`);
  }
  for (const name of ['feedback-id', 'x-entity-ref-id', 'importance', 'mime-version', 'content-type', 'precedence']) {
    assert.is(count(names, name), headerCount(raw, name), `${name} is signed`);
  }
  assert.is(headerCount(raw, 'list-unsubscribe-post'), 1);
  assert.not.ok(names.includes('dkim-signature') || names.includes('received') || names.includes('return-path'));
});

test('a copy of a shown or answer header added anywhere, or any signed header added below ours, breaks the signature', async () => {
  const raw = await deliver({ to: 'reader2@rcpt.test', template: marketing, subscribed: true, headers: { 'Feedback-ID': 'a:b:c' } });
  assert.ok(await verdict(raw));
  for (const line of [
    'From: Support <support@evil.test>',
    'Subject: Urgent: verify your account',
    'Reply-To: phish@evil.test',
    'List-Unsubscribe: <https://evil.test/u>',
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    'To: someone@else.test',
    'Date: Mon, 1 Jan 2001 00:00:00 +0000',
    'Message-ID: <forged@evil.test>',
  ]) {
    assert.is(await verdict(withHeader(raw, line, 'top')), false, `${line} added on top`);
  }
  assert.is(await verdict(withHeader(raw, 'Feedback-ID: x:y:z', 'bottom')), false, 'Feedback-ID added below ours');
  // a relay's trace header is not signed: adding one keeps the signature valid
  assert.ok(await verdict(withHeader(raw, 'Received: from relay.test by mx.rcpt.test', 'top')));
});

test('transactional mail: headers it does not carry (Reply-To, Cc, the list headers) cannot be added either', async () => {
  const raw = await deliver({ to: 'buyer@rcpt.test', from: 'shop@sender.test', subject: 'Your receipt', body: '<p>Thanks</p>' });
  assert.ok(await verdict(raw));
  const names = signedNames(raw);
  for (const name of ['reply-to', 'cc', 'list-unsubscribe', 'list-unsubscribe-post', 'in-reply-to', 'references']) {
    assert.is(headerCount(raw, name), 0);
    assert.is(count(names, name), 1, `${name} is listed although absent`);
  }
  for (const line of ['Reply-To: phish@evil.test', 'Cc: other@evil.test', 'List-Unsubscribe-Post: List-Unsubscribe=One-Click', 'In-Reply-To: <x@evil.test>']) {
    assert.is(await verdict(withHeader(raw, line, 'top')), false, `${line} added`);
  }
});

test.run();
