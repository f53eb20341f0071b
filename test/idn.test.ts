// Internationalised domains in every email field: accepted as written, stored and used in punycode.
import { domainToASCII } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
test.before(async () => {
  env = await startMailEnv();
});
test.after(async () => env.close());

test('contacts: create, lookup, patch and track take a Unicode domain and store its A-label', async () => {
  const d = env.daemon;
  const created = await d.request('POST', '/contacts', { email: 'Ann@Bücher.de' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.is(created.body.email, 'Ann@xn--bcher-kva.de', 'the local part as given, the domain in punycode');

  const again = await d.request('POST', '/contacts', { email: 'ann@xn--bcher-kva.de' });
  assert.is(again.status, 200, 'the punycode spelling is the same contact');
  assert.is(again.body.id, created.body.id);

  const lookup = await d.request('POST', '/contacts/lookup', { emails: ['ann@BÜCHER.de', 'nobody@bücher.de'] });
  assert.equal(lookup.body.found.map((c: { id: string }) => c.id), [created.body.id]);
  assert.equal(lookup.body.notFound, ['nobody@xn--bcher-kva.de']);

  const tracked = await d.request('POST', '/v1/track', { email: 'ann@bücher.de', event: 'visited' }, { key: d.project.publicKey });
  assert.is(tracked.status, 200);
  assert.is(tracked.body.data.contact, created.body.id);

  const patched = await d.request('PATCH', `/contacts/${created.body.id}`, { email: 'ann@straße.de' });
  assert.is(patched.status, 200);
  assert.is(patched.body.email, 'ann@xn--strae-oqa.de');
});

test('invalid domains are still refused with 422', async () => {
  for (const email of ['ann@bü cher.de', 'ann@-bücher.de', 'ann@bücher', 'ann@.de']) {
    const r = await env.daemon.request('POST', '/contacts', { email });
    assert.is(r.status, 422, email);
    assert.is(r.body.error.errors[0].field, 'email');
  }
});

test('send: a Unicode sender domain and recipient domain are delivered in punycode', async () => {
  await env.verifySender('bücher.test');
  const recipientDomain = domainToASCII('empfänger.test');
  env.routeToSink(recipientDomain);
  const template = await env.daemon.request('POST', '/templates', {
    name: 'IDN',
    subject: 'Hallo',
    body: '<p>Hallo</p>',
    from: 'news@bücher.test',
    replyTo: 'antwort@bücher.test',
    type: 'TRANSACTIONAL',
  });
  assert.is(template.status, 201, JSON.stringify(template.body));
  assert.is(template.body.from, 'news@xn--bcher-kva.test');
  assert.is(template.body.replyTo, 'antwort@xn--bcher-kva.test');
  const before = env.sink.messages.length;
  const sent = await env.daemon.request('POST', '/v1/send', { to: { name: 'Eva', email: 'eva@empfänger.test' }, template: template.body.id });
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  assert.is(sent.body.data.emails[0].contact.email, `eva@${recipientDomain}`);
  const messages = await env.sink.waitFor(before + 1, 8000);
  // Delivery found the sink through the MX of the A-label (the only name the DNS server knows);
  // smtp-server shows envelope domains in Unicode.
  assert.equal(messages[before]!.rcptTo, ['eva@empfänger.test']);
});

test.run();
