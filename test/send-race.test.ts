import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('sender.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

test('concurrent sends to one new address: one contact, and every message links to it', async () => {
  const sends = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      env.daemon.request('POST', '/v1/send', {
        to: 'racer@rcpt.test',
        from: 'hello@sender.test',
        subject: `Race ${i}`,
        body: '<p>Hi</p><a href="{{manageUrl}}">Preferences</a>',
        data: { round: i },
      }),
    ),
  );
  assert.ok(sends.every((s) => s.status === 200), JSON.stringify(sends.map((s) => s.status)));
  const contactIds = new Set(sends.map((s) => s.body.data.emails[0].contact.id));
  assert.is(contactIds.size, 1, 'every answer names the one contact');
  const list = await env.daemon.request('GET', '/contacts?search=racer@rcpt.test');
  assert.is(list.body.total, 1);
  const messages = await env.sink.waitFor(12, 10_000);
  for (const message of messages) {
    const html = String((await simpleParser(message.raw)).html);
    const manage = new URL(/href="([^"]+\/m\/[^"]+)"/.exec(html)![1]!).pathname;
    const page = await env.daemon.request('GET', manage, undefined, { key: null });
    assert.is(page.status, 200, 'the link names a contact that exists');
  }
});

test.run();
